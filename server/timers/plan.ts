// Planning timers: what domain operations call, inside the transaction of the change that makes a
// timer due (a booking held, confirmed or moved; a WhatsApp window opened; a hand-off queued). Each
// timer is one row of `timers` (kind, subject, key → due_at), so the plan commits with the change or
// not at all, and a NOTIFY (delivered on commit) wakes the engine (worker.ts, or the Inngest relay).
// Re-planning a timer to another time bumps its generation and re-arms it; a timer whose plan is
// gone is deleted, so a cancelled or moved booking never fires for its old time.
import { Prisma } from '@/server/db/generated/client';
import type { TenantTx } from '@/server/db/tenant-scope';
import { newId } from '@/server/lib/ids';

export const TIMER_CHANNEL = 'switchboard_timers';

export const TIMER_KINDS = [
  'booking.hold',
  'booking.reminder',
  'conversation.window',
  'conversation.handoff',
  'payment.expire_checkout',
  'payment.refund_late',
] as const;
export type TimerKind = (typeof TIMER_KINDS)[number];

export interface TimerPlan {
  kind: TimerKind;
  /** Tells apart timers of one kind and subject (a reminder's index); '' when there is one. */
  key?: string;
  dueAt: Date;
}

/** Anything that runs raw SQL in the caller's transaction. */
type Sql = Pick<TenantTx, '$executeRaw'>;

/**
 * Makes the timers of `kinds` for one subject exactly `plans`: missing ones are created, moved ones
 * re-armed (new due time, generation + 1, not fired), unchanged ones left alone (a fired one stays
 * fired), and the rest deleted. One statement, then the engine is woken on commit.
 */
export async function planTimers(
  tx: Sql,
  input: { tenantId: string; subjectId: string; kinds: TimerKind[]; plans: TimerPlan[] },
): Promise<void> {
  const keep = input.plans.map((p) => `${p.kind}|${p.key ?? ''}`);
  const rows = input.plans.map((p) => ({
    id: newId('timer'),
    kind: p.kind,
    key: p.key ?? '',
    due: p.dueAt.toISOString(),
  }));
  const upsert =
    rows.length === 0
      ? Prisma.sql`select 1`
      : Prisma.sql`insert into timers (id, tenant_id, kind, subject_id, key, due_at, updated_at)
          select p.id, ${input.tenantId}::uuid, p.kind, ${input.subjectId}, p.key, p.due, now()
          from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.kind)}::text[],
            ${rows.map((r) => r.key)}::text[], ${rows.map((r) => r.due)}::timestamptz[]) as p(id, kind, key, due)
          on conflict (kind, subject_id, key) do update set
            due_at = excluded.due_at, generation = timers.generation + 1, fired_at = null,
            locked_until = null, dispatched_generation = null, updated_at = now()
          where timers.due_at <> excluded.due_at`;
  await tx.$executeRaw`with gone as (
      delete from timers where tenant_id = ${input.tenantId}::uuid and subject_id = ${input.subjectId}
        and kind = any(${input.kinds}::text[]) and not ((kind || '|' || key) = any(${keep}::text[]))
    ), planned as (${upsert})
    select pg_notify(${TIMER_CHANNEL}::text, '')`;
}

/**
 * Moves one timer to `dueAt` from inside its own firing (a conversation timer that woke before the
 * configured moment): the timer is re-armed with a new generation.
 */
export async function replanTimer(tx: Sql, input: { id: string; dueAt: Date }): Promise<void> {
  await tx.$executeRaw`with moved as (
      update timers set due_at = ${input.dueAt.toISOString()}::timestamptz, generation = generation + 1,
        fired_at = null, locked_until = null, dispatched_generation = null, updated_at = now()
      where id = ${input.id}
    ) select pg_notify(${TIMER_CHANNEL}::text, '')`;
}

/** A timer as its handler gets it. */
export interface DueTimer {
  id: string;
  tenantId: string;
  kind: TimerKind;
  subjectId: string;
  key: string;
  dueAt: Date;
  generation: number;
}

/**
 * Marks the timer fired inside the handler's transaction: true for exactly one caller per generation
 * (the row lock serialises racers; a re-planned or deleted timer matches nothing). The handler's
 * effect commits with this mark or not at all, which makes every timer fire once.
 */
export async function markFired(tx: Sql, timer: Pick<DueTimer, 'id' | 'generation'>): Promise<boolean> {
  const count =
    await tx.$executeRaw`update timers set fired_at = now(), locked_until = null, updated_at = now()
    where id = ${timer.id} and generation = ${timer.generation} and fired_at is null`;
  return count === 1;
}
