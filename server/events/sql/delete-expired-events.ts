// Generated from delete-expired-events.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type DeleteExpiredEventsParams = [days: number, batch: number];

export type DeleteExpiredEventsRow = Record<string, never>;

/**
 * One batch of event retention (../retention.ts): the oldest events past the retention that have no
 * pending delivery, with their deliveries and attempts (foreign keys cascade). SKIP LOCKED keeps the
 * batches of several instances apart. `= any (array(…))`: a key lookup in any plan; `in (select …)`
 * planned generically (the statement is named, server/db/statement-names.ts) scanned the whole table.
 */
export const deleteExpiredEvents = typedSql<DeleteExpiredEventsParams, DeleteExpiredEventsRow>({
  name: 'delete-expired-events',
  text: `with doomed as (
  select e.id from events e
  where e.created_at < now() - make_interval(days => $1::int)
    and not exists (select 1 from deliveries d where d.event_id = e.id and d.status = 'pending')
  order by e.created_at
  limit $2::int
  for update skip locked
)
delete from events where id = any (array(select id from doomed))`,
  columns: [],
});
