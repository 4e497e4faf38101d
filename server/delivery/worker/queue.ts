import { Logger, runMigrations } from 'graphile-worker';
import type { TenantTx } from '../../db/tenant-scope';
import { logger } from '../../log';
import type { AttemptJob } from '../attempt';

/**
 * The worker engine's queue: graphile-worker's tables in the service's own database (schema
 * `graphile_worker`, kept out of prisma/schema.prisma). Jobs are added with SQL inside the
 * caller's transaction, so a job exists exactly when the rows it refers to committed.
 */
export const DELIVER_TASK = 'switchboard.deliver';
/** Retries of a job that threw (database trouble, not a failed HTTP attempt: those are scheduled explicitly). */
const JOB_MAX_ATTEMPTS = 10;

export async function addAttemptJob(tx: TenantTx, job: AttemptJob, runAt?: Date): Promise<void> {
  const payload = JSON.stringify({ tenantId: job.tenantId, deliveryId: job.deliveryId, attempt: job.attempt });
  await tx.$executeRaw`select graphile_worker.add_job(${DELIVER_TASK}::text, ${payload}::json,
    run_at => ${(runAt ?? new Date()).toISOString()}::timestamptz, max_attempts => ${JOB_MAX_ATTEMPTS}::int)`;
}

const installed = new Set<string>();

/** Installs or upgrades graphile-worker's schema (idempotent; needed before the app writes events). */
export async function ensureQueueSchema(connectionString: string): Promise<void> {
  if (installed.has(connectionString)) return;
  await runMigrations({ connectionString, logger: quietLogger() });
  installed.add(connectionString);
}

/** graphile-worker's log lines through the service's pino logger. */
export function quietLogger(): Logger {
  return new Logger((scope) => (level, message, meta) => {
    const log = logger().child({ component: 'graphile-worker', ...scope });
    const fields = meta ?? {};
    if (level === 'error') log.error(fields, message);
    else if (level === 'warning') log.warn(fields, message);
    else if (level === 'info') log.debug(fields, message);
    else log.trace(fields, message);
  });
}
