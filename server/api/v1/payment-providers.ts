import { z } from 'zod';
import { connectStripe } from '@/server/domain/payment-providers/connect-stripe';
import { disconnectStripe } from '@/server/domain/payment-providers/disconnect-stripe';
import { listPaymentProviders } from '@/server/domain/payment-providers/list-payment-providers';
import {
  ConnectStripeInput,
  PaymentProviderConnection,
  PaymentProviderList,
  StripeWebhookAck,
} from '@/server/domain/payment-providers/schemas';
import { receiveStripeWebhook } from '@/server/domain/payments/receive-stripe-webhook';
import { json, noContent, publicRoute, tenantRoute } from '@/server/http/route';
import { FOLLOWED_EVENT_TYPES } from '@/server/stripe/webhook-events';

const tag = 'Payment providers';
const FOLLOWED = FOLLOWED_EVENT_TYPES.join(', ');

/** Only documents the body Stripe sends; the route reads it raw, for the signature. */
const StripeEventBody = z
  .object({
    id: z.string().meta({ description: 'evt_…: each id is applied once' }),
    object: z.literal('event'),
    type: z.string(),
    livemode: z.boolean(),
    created: z.number().int(),
    api_version: z.string().nullable(),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
  })
  .meta({
    description: "A Stripe event, exactly as Stripe sends it (Stripe's Event object)",
    example: {
      id: 'evt_1PqR5sTuVwXyZ012',
      object: 'event',
      type: 'checkout.session.completed',
      livemode: false,
      created: 1768899600,
      api_version: '2026-10-28.endive',
      data: {
        object: {
          id: 'cs_test_a1B2c3D4',
          object: 'checkout.session',
          payment_status: 'paid',
          status: 'complete',
          payment_intent: 'pi_3PqR5sTuVwXyZ012',
          client_reference_id: 'bkg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
          metadata: {
            tenant_id: '9b2d6c1e-3f4a-4b5c-8d7e-6f5a4b3c2d1e',
            booking_id: 'bkg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
            payment_id: 'pay_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
          },
        },
      },
    },
  });

export const paymentProviderRoutes = [
  tenantRoute({
    method: 'PUT',
    path: '/payment-providers/stripe',
    operationId: 'connectStripe',
    tag,
    permission: 'payment_providers.write',
    summary: "Connect the tenant's Stripe account (or replace its keys)",
    description:
      'The secret key is checked with Stripe first (GET /v1/account): a key Stripe refuses is 422 ' +
      'provider_verification_failed and nothing is stored; Stripe out of reach is 502 ' +
      'payment_provider_unavailable. Both secrets are stored encrypted and never returned (only their last 4 ' +
      'characters). Then add webhook_url in Stripe as a webhook endpoint for these events: ' +
      `${FOLLOWED}; its signing secret is the webhook_secret given here. Recorded in the audit log ` +
      '(payment_provider.connected).',
    body: ConnectStripeInput,
    responses: { 200: { description: 'Connected', schema: PaymentProviderConnection } },
    errors: [502],
    handler: async ({ ctx, body }) => json(200, await connectStripe(ctx, body)),
  }),
  tenantRoute({
    method: 'GET',
    path: '/payment-providers',
    operationId: 'listPaymentProviders',
    tag,
    permission: 'payment_providers.read',
    summary: "The tenant's connected payment providers",
    description: 'Manual payments need no provider and are not listed. Secrets are never returned.',
    responses: { 200: { description: 'Connected providers', schema: PaymentProviderList } },
    handler: async ({ ctx }) => json(200, await listPaymentProviders(ctx)),
  }),
  tenantRoute({
    method: 'DELETE',
    path: '/payment-providers/stripe',
    operationId: 'disconnectStripe',
    tag,
    permission: 'payment_providers.write',
    summary: "Disconnect Stripe and forget the tenant's Stripe keys",
    description:
      "Stripe's webhooks for the tenant are refused from then on. Stripe payments keep their state; refunding " +
      'them answers 409 payment_provider_missing until Stripe is connected again. 404 when Stripe is not ' +
      'connected. Recorded in the audit log (payment_provider.disconnected).',
    responses: { 204: { description: 'Disconnected' } },
    errors: [404],
    handler: async ({ ctx }) => {
      await disconnectStripe(ctx, {});
      return noContent();
    },
  }),
];

/** Stripe's inbound webhook: public, authenticated by Stripe's signature (no dashboard twin). */
export const stripeWebhookRoutes = [
  publicRoute({
    method: 'POST',
    path: '/payment-providers/stripe/webhook/{tenant_id}',
    operationId: 'receiveStripeWebhook',
    tag,
    summary: "Stripe's webhook for one tenant (the webhook_url of its Stripe connection)",
    description:
      'Called by Stripe (no X-Tenant-ID, no credential). The raw body must verify with Stripe-Signature and ' +
      "the tenant's webhook signing secret (Stripe's official SDK, 5 minutes of tolerance); a missing or bad " +
      'signature, an unknown tenant or a tenant without Stripe answers 400 signature_verification_failed and ' +
      'changes nothing. Each event id is applied once (a repeat answers 200, outcome duplicate); events may ' +
      'arrive in any order. checkout.session.completed with payment_status paid, or ' +
      'checkout.session.async_payment_succeeded: the payment succeeds (payment.succeeded) and, in the same ' +
      'transaction, its booking is confirmed (booking.confirmed); a booking whose hold had already expired is ' +
      'confirmed while its slot is still free, else it stays expired and the payment is refunded in full through ' +
      'Stripe right after (once). checkout.session.expired or checkout.session.async_payment_failed: the payment ' +
      'fails (payment.failed) and a still-pending booking expires (booking.expired), freeing its slot. ' +
      "charge.refunded: the charge's refunded total becomes refunded_amount; the whole amount makes the payment " +
      'refunded (payment.refunded). A charge.refunded that arrives before its payment completed is kept ' +
      '(outcome deferred) and applied with the completion. Other event types answer 200 (outcome ignored). A ' +
      '5xx makes Stripe retry, which is safe.',
    rawBody: true,
    body: StripeEventBody,
    responses: { 200: { description: 'Received', schema: StripeWebhookAck } },
    errors: [400],
    handler: async ({ params, request, rawBody }) =>
      json(
        200,
        await receiveStripeWebhook({
          tenantId: params.tenant_id,
          rawBody,
          signature: request.headers.get('stripe-signature'),
        }),
      ),
  }),
];
