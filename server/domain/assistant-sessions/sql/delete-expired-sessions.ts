// Generated from delete-expired-sessions.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type DeleteExpiredSessionsParams = [batch: number];

export type DeleteExpiredSessionsRow = Record<string, never>;

/**
 * One batch of the cleanup of assistant sessions (delete-expired-sessions.ts): the oldest that expired,
 * along the expires_at index; SKIP LOCKED keeps the batches of several instances apart.
 */
export const deleteExpiredSessions = typedSql<DeleteExpiredSessionsParams, DeleteExpiredSessionsRow>({
  name: 'delete-expired-sessions',
  text: `with doomed as (
  select id from assistant_sessions
  where expires_at <= now()
  order by expires_at
  limit $1::int
  for update skip locked
)
delete from assistant_sessions s using doomed d where s.id = d.id`,
  columns: [],
});
