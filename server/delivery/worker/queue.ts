import { Logger, runMigrations } from 'graphile-worker';
import { Prisma } from '../../db/generated/client';
import type { TenantDb, TenantTx } from '../../db/tenant-scope';
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

/** graphile_worker.job_spec values (as JSON) for attempt jobs. */
export function jobSpecs(jobs: Array<{ job: AttemptJob; runAt?: Date }>) {
  return jobs.map(({ job, runAt }) => ({
    identifier: DELIVER_TASK,
    payload: { tenantId: job.tenantId, deliveryId: job.deliveryId, attempt: job.attempt },
    run_at: (runAt ?? new Date()).toISOString(),
    max_attempts: JOB_MAX_ATTEMPTS,
  }));
}

/** SQL adding attempt jobs in one statement (a fan-out to many endpoints is still one round trip). */
export function addAttemptJobsSql(jobs: Array<{ job: AttemptJob; runAt?: Date }>): Prisma.Sql {
  return Prisma.sql`select graphile_worker.add_jobs(array(
    select json_populate_record(null::graphile_worker.job_spec, spec)
    from json_array_elements(${JSON.stringify(jobSpecs(jobs))}::json) as spec))`;
}

export async function addAttemptJobs(tx: TenantTx | TenantDb, jobs: Array<{ job: AttemptJob; runAt?: Date }>): Promise<void> {
  await tx.$executeRaw(addAttemptJobsSql(jobs));
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
    const pinoLevel = level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'debug' : 'trace';
    // graphile-worker logs per job; skip building a child logger for lines that would be dropped.
    if (!logger().isLevelEnabled(pinoLevel)) return;
    logger()
      .child({ component: 'graphile-worker', ...scope })
      [pinoLevel](meta ?? {}, message);
  });
}
