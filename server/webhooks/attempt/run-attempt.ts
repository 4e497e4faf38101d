// One delivery attempt, written once and run by both engines: load the delivery, refuse if the
// endpoint is inactive now, sign afresh, POST, and record the attempt, the delivery's new state
// (with `next_attempt_at`, the worker engine's schedule for the retry) and the endpoint's failure
// streak in one statement (./sql/record-attempts.sql). Duplicate
// runs of the same attempt (a claim that lapsed, a step replayed) record nothing.

import { isWebhookNotice } from '@/server/client-safe/event-catalog';
import { settings } from '@/server/config/settings';
import { type OperationContext, operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { envelopeBody } from '@/server/events/envelope';
import { newId } from '@/server/lib/ids';
import { withAttemptSpan } from '@/server/lib/tracing';
import { logger } from '@/server/log';
import { observeAttempt } from '@/server/metrics/registry';
import { recordDeliveryExhausted } from '@/server/webhooks/notices/delivery-exhausted';
import { disableIfFailing } from '@/server/webhooks/notices/disable-failing-endpoint';
import { signingSecrets } from '@/server/webhooks/secrets';
import { type SendOutcome, sendWebhook } from './send';
import { signAttempt } from './sign';
import { type LoadDeliveryRow, loadDelivery } from './sql/load-delivery';
import { recordAttempts } from './sql/record-attempts';
import { THROTTLE_SEND_WITHIN_MS, takeThrottleSlot } from './throttle';

export interface AttemptJob {
  tenantId: string;
  deliveryId: string;
  attempt: number;
}

export type AttemptOutcome =
  | { kind: 'succeeded'; attempt: number }
  | { kind: 'retry'; attempt: number; nextAttempt: number; waitMs: number }
  | { kind: 'failed'; attempt: number }
  /** Nothing was sent: the endpoint's throttle has no free slot before `until`; run the same attempt then. */
  | { kind: 'throttled'; attempt: number; until: Date }
  /** Nothing was sent: the delivery is gone, already final, already past this attempt, or its endpoint is inactive. */
  | { kind: 'skipped'; reason: 'gone' | 'final' | 'duplicate' | 'endpoint_inactive'; attemptCount: number };

export interface AttemptHooks {
  /**
   * Where the attempt is loaded from and recorded to. Without it, through Prisma; the worker passes the row its claim already read and a store that combines the records
   * of its concurrent attempts (worker/attempt-store.ts). Both keep the rules of `AttemptStore`.
   */
  store?: AttemptStore;
}

/**
 * The delivery, its event and its endpoint, as an attempt needs them: the row of
 * ./sql/load-delivery.sql, whose columns the worker's claim returns too.
 */
export type LoadedDelivery = LoadDeliveryRow;

/** One attempt's result, to be recorded with the delivery's new state. */
export interface AttemptRecord {
  id: string;
  job: AttemptJob;
  /** The delivery's endpoint, kept on the attempt row for the stats. */
  endpointId: string;
  /** Whether the delivery carries one of the service's own `webhook.*` notices (never counts toward a failure streak). */
  notice: boolean;
  startedAt: Date;
  result: SendOutcome;
  status: 'succeeded' | 'failed' | 'pending';
  /** When the next attempt is due (the delivery stays pending), or null when this one was the last. */
  nextAttemptAt: Date | null;
}

export interface AttemptStore {
  /** The delivery of `job` within its tenant, or undefined. */
  load(job: AttemptJob): Promise<LoadedDelivery | undefined>;
  /**
   * Atomically: inserts the attempt row (unique per delivery and number) and, only if it was new,
   * moves the still-pending delivery to its new state, ends the worker's claim on it and moves the
   * endpoint's failure streak. Resolves to whether the delivery moved (false: a duplicate run, which
   * records and schedules nothing).
   */
  record(record: AttemptRecord): Promise<boolean>;
}

/** Attempts allowed in one round (a delivery's first, or each recovery): the first plus one per configured wait. */
export function maxAttempts(): number {
  return 1 + settings().WEBHOOK_RETRY_WAITS.length;
}

/** The wait after failed attempt `attempt` of a round (1-based). */
export function waitAfter(attempt: number): number | undefined {
  return settings().WEBHOOK_RETRY_WAITS[attempt - 1];
}

/** Through Prisma: the store of the Inngest engine and of direct calls. */
function prismaStore({ db, tenantId }: OperationContext): AttemptStore {
  return {
    async load(job) {
      // Raw SQL on the hot path (measured ~2x faster than the relation query); the tenant filter is explicit.
      const [delivery] = await loadDelivery.rows(db, job.deliveryId, tenantId);
      return delivery;
    },
    async record(record) {
      // The attempt, the delivery's new state (only if the attempt row was new) and the endpoint's
      // failure streak, in one statement.
      const moved = await recordAttempts.rows(db, JSON.stringify([attemptRecordRow(record)]));
      return moved.length > 0;
    },
  };
}

/** One record as an object of ./sql/record-attempts.sql's input. */
export function attemptRecordRow(r: AttemptRecord) {
  return {
    id: r.id,
    tenant_id: r.job.tenantId,
    delivery_id: r.job.deliveryId,
    endpoint_id: r.endpointId,
    attempt_number: r.job.attempt,
    started_at: r.startedAt.toISOString(),
    succeeded: r.result.ok,
    response_status: r.result.status,
    latency_ms: r.result.latencyMs,
    response_excerpt: r.result.excerpt,
    error: r.result.error,
    status: r.status,
    next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
    notice: r.notice,
  };
}

/**
 * Ends the worker's claim on a delivery that did not record an attempt (a no-op on the Inngest
 * engine, which claims nothing). Left to lapse, it would count as in flight until then.
 */
async function endClaim(ctx: OperationContext, deliveryId: string): Promise<void> {
  await ctx.db.deliveryClaim.deleteMany({ where: { deliveryId } });
}

/**
 * The throttle turned the attempt away: nothing is sent or recorded, and the delivery is due again
 * at `until` (the worker's schedule; its claim ends here; the Inngest function sleeps until then).
 */
async function waitForSlot(
  ctx: OperationContext,
  job: AttemptJob,
  deliveryId: string,
  until: Date,
): Promise<AttemptOutcome> {
  const { count } = await ctx.db.delivery.updateMany({
    where: { id: deliveryId, status: 'pending', attemptCount: { lt: job.attempt } },
    data: { nextAttemptAt: until },
  });
  // Only a delivery still at this attempt: one that moved on since it was loaded may be claimed
  // anew, by another worker, for its next attempt.
  if (count > 0) await endClaim(ctx, deliveryId);
  return { kind: 'throttled', attempt: job.attempt, until };
}

/**
 * Runs attempt `job.attempt` of a delivery. Not an operation of a tenant's: a job of the engines that
 * names its tenant, so it acts in that tenant's context as the system.
 */
export async function runAttempt(job: AttemptJob, hooks: AttemptHooks = {}): Promise<AttemptOutcome> {
  const ctx = operationContext(job.tenantId, SYSTEM_ACTOR);
  const store = hooks.store ?? prismaStore(ctx);
  const delivery = await store.load(job);
  if (!delivery) return { kind: 'skipped', reason: 'gone', attemptCount: 0 };
  if (delivery.status !== 'pending')
    return { kind: 'skipped', reason: 'final', attemptCount: delivery.attemptCount };
  if (delivery.attemptCount >= job.attempt) {
    return { kind: 'skipped', reason: 'duplicate', attemptCount: delivery.attemptCount };
  }
  if (!delivery.isActive) {
    // An inactive endpoint gets no request, scheduled retries included: the delivery ends as failed.
    const { count } = await ctx.db.delivery.updateMany({
      where: { id: delivery.id, status: 'pending' },
      data: { status: 'failed', nextAttemptAt: null },
    });
    if (count > 0) await endClaim(ctx, delivery.id);
    return { kind: 'skipped', reason: 'endpoint_inactive', attemptCount: delivery.attemptCount };
  }

  // When the throttle's slot was asked for (performance.now()), if the endpoint has a rate limit.
  let slotAskedAt: number | null = null;
  if (delivery.rateLimitPerSecond !== null) {
    slotAskedAt = performance.now();
    const until = await takeThrottleSlot(ctx, delivery.endpointId, delivery.rateLimitPerSecond);
    if (until) return waitForSlot(ctx, job, delivery.id, until);
  }

  const config = settings();
  // The number within the current round: 1..maxAttempts() (a recovered delivery starts a new round).
  const round = job.attempt - delivery.attemptBase;
  const notice = isWebhookNotice(delivery.eventType);
  const startedAt = new Date();
  const request = signAttempt({
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    body: envelopeBody(delivery.payload),
    secrets: signingSecrets(delivery, startedAt),
    attempt: round,
    now: startedAt,
  });
  // A slot is only good if the request leaves right after it was taken: one held up here (a stalled
  // process) could land in the same second as later ones. It is left unused (the window stays as if it
  // had been sent) and the attempt asks again.
  if (slotAskedAt !== null && performance.now() - slotAskedAt > THROTTLE_SEND_WITHIN_MS) {
    return waitForSlot(ctx, job, delivery.id, new Date());
  }
  // A span in the trace of the request that caused the delivery (when tracing is on).
  const result = await withAttemptSpan(
    delivery.traceparent,
    {
      'switchboard.delivery_id': delivery.id,
      'switchboard.attempt': job.attempt,
      'http.request.method': 'POST',
    },
    async (span) => {
      const sent = await sendWebhook(delivery.url, request, {
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS,
      });
      if (sent.status !== null) span.setAttribute('http.response.status_code', sent.status);
      if (!sent.ok) span.setStatus({ code: 2, message: sent.error ?? 'failed' });
      return sent;
    },
  );

  const wait = result.ok || round >= maxAttempts() ? undefined : waitAfter(round);
  const status = result.ok ? 'succeeded' : wait === undefined ? 'failed' : 'pending';
  const nextAttemptAt = wait === undefined ? null : new Date(Date.now() + wait);
  const moved = await store.record({
    id: newId('deliveryAttempt'),
    job,
    endpointId: delivery.endpointId,
    notice,
    startedAt,
    result,
    status,
    nextAttemptAt,
  });
  if (!moved) return { kind: 'skipped', reason: 'duplicate', attemptCount: job.attempt };
  observeAttempt(result.ok, result.latencyMs);
  logger().info(
    {
      delivery_id: delivery.id,
      event_id: delivery.eventId,
      endpoint_id: delivery.endpointId,
      attempt: job.attempt,
      status: result.status,
      ms: result.latencyMs,
      error: result.error,
    },
    'webhook attempt',
  );
  if (result.ok) return { kind: 'succeeded', attempt: job.attempt };
  // docs/operations.md "Webhook operations": the service's own notices never cause another notice, nor count toward disabling.
  // The attempt is recorded already: a failure here loses at most this notice (a disable the streak
  // calls for is tried again at the next failed attempt), so it is logged, not thrown.
  if (!notice) {
    try {
      if (wait === undefined) {
        await recordDeliveryExhausted(ctx, {
          delivery_id: delivery.id,
          endpoint_id: delivery.endpointId,
          event_id: delivery.eventId,
          event_type: delivery.eventType,
          attempts: job.attempt,
          last_status: result.status,
        });
      }
      await disableIfFailing(ctx, delivery.endpointId);
    } catch (error) {
      logger().error(
        { err: error, delivery_id: delivery.id, endpoint_id: delivery.endpointId },
        'could not record a webhook notice after a failed attempt',
      );
    }
  }
  if (wait === undefined) return { kind: 'failed', attempt: job.attempt };
  return { kind: 'retry', attempt: job.attempt, nextAttempt: job.attempt + 1, waitMs: wait };
}
