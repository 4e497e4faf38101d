import { settings } from '../config/settings';
import type { TenantTx } from '../db/tenant-scope';
import { forTenant } from '../db/tenant-scope';
import { newId } from '../lib/ids';
import { logger } from '../log';
import { signingSecrets } from '../webhooks/secrets';
import { sendWebhook } from './send';
import { signAttempt } from './sign';

/**
 * One delivery attempt, written once and run by both engines: load the delivery, refuse if the
 * endpoint is inactive now, sign afresh, POST, and record the attempt and the delivery's new
 * state in one transaction (with the engine's retry hand-over, when it has one, in the same
 * transaction). Duplicate runs of the same attempt (a job re-run after a crash) record nothing.
 */
export interface AttemptJob {
  tenantId: string;
  deliveryId: string;
  attempt: number;
}

export type AttemptOutcome =
  | { kind: 'succeeded'; attempt: number }
  | { kind: 'retry'; attempt: number; nextAttempt: number; waitMs: number }
  | { kind: 'failed'; attempt: number }
  /** Nothing was sent: the delivery is gone, already final, already past this attempt, or its endpoint is inactive. */
  | { kind: 'skipped'; reason: 'gone' | 'final' | 'duplicate' | 'endpoint_inactive'; attemptCount: number };

export interface AttemptHooks {
  /** Inside the recording transaction, when another attempt is due after `waitMs`. */
  scheduleRetry?: (tx: TenantTx, next: AttemptJob, runAt: Date) => Promise<void>;
}

/** Attempts allowed in total: the first plus one per configured wait. */
export function maxAttempts(): number {
  return 1 + settings().WEBHOOK_RETRY_WAITS.length;
}

/** The wait after failed attempt `attempt` (1-based). */
export function waitAfter(attempt: number): number | undefined {
  return settings().WEBHOOK_RETRY_WAITS[attempt - 1];
}

/** The envelope as sent: top-level keys in contract order (the stored jsonb does not keep order). */
export function envelopeBody(payload: unknown): string {
  const p = payload as Record<string, unknown>;
  const { id, type, created_at, tenant_id, api_version, data, ...rest } = p;
  return JSON.stringify({ id, type, created_at, tenant_id, api_version, data, ...rest });
}

class DuplicateAttempt extends Error {}

export async function runAttempt(job: AttemptJob, hooks: AttemptHooks = {}): Promise<AttemptOutcome> {
  const db = forTenant(job.tenantId);
  const delivery = await db.delivery.findUnique({
    where: { id: job.deliveryId },
    include: { endpoint: true, event: true },
  });
  if (!delivery) return { kind: 'skipped', reason: 'gone', attemptCount: 0 };
  if (delivery.status !== 'pending') return { kind: 'skipped', reason: 'final', attemptCount: delivery.attemptCount };
  if (delivery.attemptCount >= job.attempt) {
    return { kind: 'skipped', reason: 'duplicate', attemptCount: delivery.attemptCount };
  }
  const { endpoint, event } = delivery;
  if (!endpoint.isActive) {
    // An inactive endpoint gets no request, scheduled retries included: the delivery ends as failed.
    await db.delivery.updateMany({
      where: { id: delivery.id, status: 'pending' },
      data: { status: 'failed', nextAttemptAt: null },
    });
    return { kind: 'skipped', reason: 'endpoint_inactive', attemptCount: delivery.attemptCount };
  }

  const config = settings();
  const startedAt = new Date();
  const request = signAttempt({
    eventId: event.id,
    eventType: event.type,
    body: envelopeBody(event.payload),
    secrets: signingSecrets(endpoint, startedAt),
    attempt: job.attempt,
    now: startedAt,
  });
  const result = await sendWebhook(endpoint.url, request, {
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS,
  });

  const wait = result.ok || job.attempt >= maxAttempts() ? undefined : waitAfter(job.attempt);
  const status = result.ok ? 'succeeded' : wait === undefined ? 'failed' : 'pending';
  const nextAttemptAt = wait === undefined ? null : new Date(Date.now() + wait);
  try {
    await db.$transaction(async (tx) => {
      const moved = await tx.delivery.updateMany({
        where: { id: delivery.id, status: 'pending', attemptCount: job.attempt - 1 },
        data: { status, attemptCount: job.attempt, lastAttemptAt: startedAt, nextAttemptAt },
      });
      if (moved.count === 0) throw new DuplicateAttempt();
      await tx.deliveryAttempt.create({
        data: {
          id: newId('deliveryAttempt'),
          tenantId: job.tenantId,
          deliveryId: delivery.id,
          attemptNumber: job.attempt,
          startedAt,
          succeeded: result.ok,
          responseStatus: result.status,
          latencyMs: result.latencyMs,
          responseExcerpt: result.excerpt,
          error: result.error,
        },
      });
      if (nextAttemptAt && hooks.scheduleRetry) {
        await hooks.scheduleRetry(tx, { ...job, attempt: job.attempt + 1 }, nextAttemptAt);
      }
    });
  } catch (error) {
    if (error instanceof DuplicateAttempt) return { kind: 'skipped', reason: 'duplicate', attemptCount: job.attempt };
    throw error;
  }
  logger().info(
    {
      delivery_id: delivery.id,
      event_id: event.id,
      endpoint_id: endpoint.id,
      attempt: job.attempt,
      status: result.status,
      ms: result.latencyMs,
      error: result.error,
    },
    'webhook attempt',
  );
  if (result.ok) return { kind: 'succeeded', attempt: job.attempt };
  if (wait === undefined) return { kind: 'failed', attempt: job.attempt };
  return { kind: 'retry', attempt: job.attempt, nextAttempt: job.attempt + 1, waitMs: wait };
}
