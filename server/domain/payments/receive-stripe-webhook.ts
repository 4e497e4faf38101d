// Stripe's webhook for one tenant: the route's path names the tenant, whose own signing secret must
// verify the raw body (the official SDK, Stripe-Signature, 5 minutes of tolerance). Anything that does
// not verify is refused with 400 and changes nothing; a verified event is applied once
// (apply-stripe-event.ts) and acknowledged with 200, including types the service does not follow.
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { providerProblem } from '@/server/domain/payment-providers/provider-errors';
import type { StripeWebhookOutcome } from '@/server/domain/payment-providers/schemas';
import { findStripeConnection } from '@/server/domain/payment-providers/stripe-connection';
import { AppError } from '@/server/lib/errors';
import { isUuid } from '@/server/lib/ids';
import { logger } from '@/server/log';
import { listRefunds } from '@/server/stripe/refunds';
import { readStripeEvent, verifyStripeEvent } from '@/server/stripe/webhook-events';
import { applyStripeEvent } from './apply-stripe-event';

const refused = (detail: string) => new AppError('signature_verification_failed', detail);

export async function receiveStripeWebhook(input: {
  tenantId: string;
  rawBody: string;
  signature: string | null;
}): Promise<{ received: true; outcome: StripeWebhookOutcome }> {
  // An unknown tenant and a tenant without Stripe get the same answer: no secret to verify with.
  const noSecret = refused('No Stripe webhook signing secret is configured at this URL');
  if (!isUuid(input.tenantId)) throw noSecret;
  const ctx = operationContext(input.tenantId.toLowerCase(), SYSTEM_ACTOR);
  const connection = await findStripeConnection(ctx.db);
  if (!connection) throw noSecret;

  const verified = verifyStripeEvent(input.rawBody, input.signature, connection.webhookSecret);
  if (!verified.ok) {
    logger().warn({ tenant_id: ctx.tenantId, reason: verified.reason }, 'stripe webhook refused');
    throw refused(verified.reason);
  }
  const { event } = verified;
  // An event of another account (a Connect platform's endpoint) is not about this tenant's payments.
  if (event.account && event.account !== connection.accountId) {
    logger().warn({ tenant_id: ctx.tenantId, stripe_event_id: event.id }, 'stripe event of another account');
    return { received: true, outcome: 'ignored' };
  }
  const notice = readStripeEvent(event);
  if (notice.kind === 'not_followed') return { received: true, outcome: 'ignored' };
  if (notice.kind !== 'charge_refunded' || !notice.paymentIntentId) {
    return { received: true, outcome: await applyStripeEvent(ctx, event, notice) };
  }
  // A refund tells only the charge's running total: each refund in it is recorded (and audited) once by
  // its id, so Stripe lists them, before the transaction. A repeat asks Stripe nothing; Stripe unreachable
  // answers 503, and Stripe delivers the event again later.
  if (
    await ctx.db.stripeEvent.findUnique({
      where: { tenantId_eventId: { tenantId: ctx.tenantId, eventId: event.id } },
    })
  ) {
    return { received: true, outcome: 'duplicate' };
  }
  const listed = await listRefunds(connection.secretKey, notice.paymentIntentId);
  if (!listed.ok) throw providerProblem(listed.failure);
  return { received: true, outcome: await applyStripeEvent(ctx, event, notice, listed.refunds) };
}
