// Generated from service-reminders.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type ServiceRemindersParams = [tenantId: string, serviceId: string];

export interface ServiceRemindersRow {
  reminders: unknown;
}

/**
 * A service's reminders (booking-timers.ts plans them for a confirmed booking of the service).
 */
export const serviceReminders = typedSql<ServiceRemindersParams, ServiceRemindersRow>({
  name: 'service-reminders',
  text: `select reminders from services where tenant_id = $1::uuid and id = $2::text`,
  columns: ['reminders'],
});
