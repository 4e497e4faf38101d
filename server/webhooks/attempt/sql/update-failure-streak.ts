// Generated from update-failure-streak.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type UpdateFailureStreakParams = [attempts: string];

export interface UpdateFailureStreakRow {
  id: string;
}

/**
 * Each endpoint's failure streak (README, "Webhook operations"), moved by the attempts that
 * record-attempts.sql just recorded (its rows, as JSON), in the same transaction: a 2xx resets
 * it, a failure adds one (the first sets `failure_streak_since`); within one batch, failures after
 * its last success count. Attempts of the service's own `webhook.*` notices never add to a streak,
 * so a notice can never disable an endpoint. An unchanged streak (a success on a healthy endpoint,
 * the common case) is not written. Returns the endpoints written.
 */
export const updateFailureStreak = typedSql<UpdateFailureStreakParams, UpdateFailureStreakRow>({
  name: 'update-failure-streak',
  text: `with counted as (
  select "tenantId" as tenant_id, "endpointId" as endpoint_id, "startedAt" as started_at, succeeded
  from json_to_recordset($1::json)
    as x("tenantId" uuid, "endpointId" text, "startedAt" timestamptz, succeeded boolean, notice boolean)
  where succeeded or not coalesce(notice, false)
), last_ok as (
  select tenant_id, endpoint_id, max(started_at) filter (where succeeded) as ok_at
  from counted group by tenant_id, endpoint_id
), streak as (
  select l.tenant_id, l.endpoint_id, l.ok_at,
    (count(*) filter (where not c.succeeded and (l.ok_at is null or c.started_at > l.ok_at)))::int as fails,
    min(c.started_at) filter (where not c.succeeded and (l.ok_at is null or c.started_at > l.ok_at)) as first_fail
  from last_ok l join counted c on c.tenant_id = l.tenant_id and c.endpoint_id = l.endpoint_id
  group by l.tenant_id, l.endpoint_id, l.ok_at
)
update webhook_endpoints w set
  failure_streak = case when s.ok_at is null then w.failure_streak + s.fails else s.fails end,
  failure_streak_since = case when s.ok_at is null then coalesce(w.failure_streak_since, s.first_fail)
    else s.first_fail end
from streak s
where w.id = s.endpoint_id and w.tenant_id = s.tenant_id
  and not (s.ok_at is not null and s.fails = 0 and w.failure_streak = 0 and w.failure_streak_since is null)
returning w.id`,
  columns: ['id'],
});
