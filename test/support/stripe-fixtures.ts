// Stripe payments in a given state, made the way the service makes them: the tenant connects Stripe
// through the REST API, a payment gets its Checkout Session through the product's own seam
// (prepareCheckout, then recordCheckoutPayment in a transaction, as booking a paid service does), and
// Stripe's side (the customer paying, refunds) happens at the stand-in, whose events are delivered to
// the service's webhook URL signed as Stripe signs them.
import { expect } from 'vitest';
import { transaction } from '@/server/db/unit-of-work';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { prepareCheckout, recordCheckoutPayment } from '@/server/domain/payments/checkout/session';
import { givenBooking, type Resource } from './builders';
import type { Delivered, FakeAccount, FakeStripe, StripeEvent } from './fake-stripe';
import type { Api, SuiteTenant } from './harness';
import { rememberSecret } from './log-scan';

/** A new account at the stand-in, connected to the tenant through PUT /payment-providers/stripe. */
export async function connectStripe(t: SuiteTenant, stripe: FakeStripe): Promise<FakeAccount> {
  const account = stripe.createAccount();
  rememberSecret('Stripe secret key', account.secretKey);
  rememberSecret('Stripe webhook secret', account.webhookSecret);
  const res = await t.admin('PUT', '/payment-providers/stripe', {
    body: { secret_key: account.secretKey, webhook_secret: account.webhookSecret },
  });
  expect(res.status, `connecting Stripe: ${res.text}`).toBe(200);
  return account;
}

export const stripeWebhookPath = (tenantId: string) => `/api/v1/payment-providers/stripe/webhook/${tenantId}`;

export interface StripePayment {
  payment: Resource;
  booking: Resource;
  sessionId: string;
}

/** A pending Stripe payment of `amount` for a new pending booking, with its open Checkout Session. */
export async function givenStripePayment(
  t: SuiteTenant,
  options: { amount?: number; currency?: string; holdEndsAt?: Date } = {},
): Promise<StripePayment> {
  const booking = await givenBooking(t.admin, 'pending', {
    customer: { name: 'Ada', email: 'ada@example.test' },
  });
  const ctx = operationContext(t.tenantId, SYSTEM_ACTOR);
  const prepared = await prepareCheckout(ctx, {
    bookingId: booking.id,
    amount: options.amount ?? 4500,
    currency: options.currency ?? 'EUR',
    holdEndsAt: options.holdEndsAt ?? new Date(Date.now() + 3_600_000),
    description: 'Check-up',
  });
  const payment = await transaction(ctx, (tx) => recordCheckoutPayment(tx, prepared));
  return { payment: payment as Resource, booking, sessionId: prepared.session.id };
}

/** Delivers a stand-in event to the tenant's webhook URL; asserts the 200 and its outcome when given. */
export async function deliverTo(
  stripe: FakeStripe,
  baseUrl: string,
  t: { tenantId: string },
  event: StripeEvent,
  outcome?: string,
): Promise<Delivered> {
  const res = await stripe.deliver(event, `${baseUrl}${stripeWebhookPath(t.tenantId)}`);
  if (outcome) expect([res.status, res.body?.outcome], `${event.type}: ${res.text}`).toEqual([200, outcome]);
  return res;
}

/** A Stripe payment the customer has paid (its completion delivered and applied): answers its PaymentIntent too. */
export async function givenPaidStripePayment(
  t: SuiteTenant,
  stripe: FakeStripe,
  baseUrl: string,
  options: { amount?: number } = {},
): Promise<StripePayment & { paymentIntentId: string }> {
  const given = await givenStripePayment(t, options);
  const completed = stripe.completeSession(given.sessionId);
  await deliverTo(stripe, baseUrl, t, completed, 'applied');
  const payment = await read(t.admin, given.payment.id);
  expect(payment.status).toBe('succeeded');
  return { ...given, payment, paymentIntentId: completed.data.object.payment_intent };
}

export async function read(api: Api, paymentId: string): Promise<Resource> {
  const res = await api('GET', `/payments/${paymentId}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}
