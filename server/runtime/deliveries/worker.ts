// The worker engine's deliveries: the claim loop (../claim-loop.ts) over the delivery rows the outbox
// wrote, woken by the hand-over's NOTIFY. Claims are fair (./claims.ts: per-tenant and per-endpoint
// caps, turns across tenants); an attempt frees its slot once its request is answered, while its
// record commits with others' (./attempt-store.ts) and ends its claim, so the caps count it until
// then. Polling every `pollIntervalMs` finds retries as they fall due. Several processes may run it
// against one database: their claims take turns under one lock.
import pg from 'pg';
import { settings } from '@/server/config/settings';
import { databaseUrl } from '@/server/db/client';
import { logger } from '@/server/log';
import { type AttemptStore, type LoadedDelivery, runAttempt } from '@/server/webhooks/attempt/run-attempt';
import { DELIVERIES_CHANNEL } from '@/server/webhooks/hand-over';
import { type RunningLoop, startClaimLoop } from '../claim-loop';
import { batchedAttemptRecorder } from './attempt-store';
import { type Caps, CLAIM_MARGIN_MS, claimDue, claimLeaseMs } from './claims';
import { releaseClaims } from './sql/release-claims';

export type DeliveryWorker = RunningLoop;

export interface WorkerOptions {
  connectionString?: string;
  concurrency?: number;
  pollIntervalMs?: number;
  /** In flight per tenant and per endpoint, across every worker (default: the settings). */
  caps?: Partial<Caps>;
}

/**
 * How far claims run ahead of the attempts, per slot. Claims run one at a time across every worker
 * and cost about the same however many deliveries they take (4–5 ms on the bench's machine), so a
 * deeper claim serves more attempts: draining one tenant's backlog to 10 receivers, 6 instead of 3
 * took the worker from ~1,100 to ~1,400 deliveries/s in side-by-side runs. Under the fairness caps a
 * claim takes no more than they leave room for, whatever this says.
 */
export const CLAIM_AHEAD_PER_SLOT = 6;

export async function startDeliveryWorker(options: WorkerOptions = {}): Promise<DeliveryWorker> {
  const config = settings();
  const concurrency = options.concurrency ?? 10;
  const timeoutMs = config.WEBHOOK_TIMEOUT_MS;
  const leaseMs = claimLeaseMs(timeoutMs);
  const caps: Caps = {
    perTenant: options.caps?.perTenant ?? config.WEBHOOK_MAX_IN_FLIGHT_PER_TENANT,
    perEndpoint: options.caps?.perEndpoint ?? config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
  };
  // A cross-tenant pass: its claims read every tenant's due deliveries, and each attempt then acts
  // in its own delivery's tenant.
  const pool = new pg.Pool({
    connectionString: options.connectionString ?? databaseUrl(),
    max: concurrency + 2,
  });
  // Idle clients can error (database restart); without a handler that would crash the process.
  pool.on('error', (error) => logger().warn({ err: error }, 'delivery worker pool client error'));
  const record = batchedAttemptRecorder(pool);

  return startClaimLoop<LoadedDelivery>({
    name: 'delivery worker',
    channel: DELIVERIES_CHANNEL,
    connectionString: options.connectionString,
    concurrency,
    prefetch: concurrency * CLAIM_AHEAD_PER_SLOT,
    idleMs: options.pollIntervalMs ?? 250,
    claim: (limit) => claimDue(pool, limit, leaseMs, caps),
    // The attempt, its deadline and its record must fit inside the claim.
    startable: (claimedAt) => Date.now() - claimedAt <= leaseMs - timeoutMs - CLAIM_MARGIN_MS,
    run: (delivery, freeSlot) => {
      const store: AttemptStore = {
        load: async () => delivery,
        record: (result) => {
          freeSlot(); // the request is answered; the record needs no slot
          return record(result);
        },
      };
      const job = {
        tenantId: delivery.tenantId,
        deliveryId: delivery.id,
        attempt: delivery.attemptCount + 1,
      };
      return runAttempt(job, { store });
    },
    release: async (deliveries) => {
      await releaseClaims.pgRows(pool, [deliveries.map((d) => d.id)]);
    },
    close: () => pool.end(),
  });
}
