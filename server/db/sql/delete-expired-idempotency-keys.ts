// Generated from delete-expired-idempotency-keys.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type DeleteExpiredIdempotencyKeysParams = [batch: number];

export type DeleteExpiredIdempotencyKeysRow = Record<string, never>;

/**
 * One batch of idempotency-key retention (../idempotency-retention.ts): expired keys with their stored
 * answers, oldest first along the `expires_at` index; SKIP LOCKED keeps several instances apart.
 */
export const deleteExpiredIdempotencyKeys = typedSql<
  DeleteExpiredIdempotencyKeysParams,
  DeleteExpiredIdempotencyKeysRow
>({
  name: 'delete-expired-idempotency-keys',
  text: `with doomed as (
  select tenant_id, key from idempotency_keys
  where expires_at <= now()
  order by expires_at
  limit $1::int
  for update skip locked
)
delete from idempotency_keys k using doomed d where k.tenant_id = d.tenant_id and k.key = d.key`,
  columns: [],
});
