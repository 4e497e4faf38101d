// Generated from insert-booking.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type InsertBookingParams = [
  id: string,
  tenantId: string,
  customerName: string,
  customerEmail: string | null,
  customerPhone: string | null,
  notes: string | null,
  metadata: string | null,
  service: string | null,
  serviceId: string | null,
  resourceId: string | null,
  startAt: Date | string,
  endAt: Date | string,
  holdExpiresAt: (Date | string) | null,
  blockedFrom: (Date | string) | null,
  blockedUntil: (Date | string) | null,
  conversationId: string | null,
];

export interface InsertBookingRow {
  id: string;
  tenantId: string;
  status: 'pending' | 'confirmed' | 'cancelled' | 'completed' | 'expired' | 'no_show';
  customerName: string;
  customerEmail: string | null;
  customerPhone: string | null;
  service: string | null;
  startAt: Date;
  endAt: Date;
  notes: string | null;
  metadata: unknown | null;
  cancellationReason: string | null;
  serviceId: string | null;
  resourceId: string | null;
  holdExpiresAt: Date | null;
  blockedFrom: Date | null;
  blockedUntil: Date | null;
  sequence: number;
  conversationId: string | null;
  attendanceConfirmedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A new booking, pending (create-booking.ts): free-form (no service, blocking nothing) or placed on a
 * resource of its service with the interval it blocks, which the exclusion constraint checks. The
 * row comes back in the shape of Prisma's Booking model.
 */
export const insertBooking = typedSql<InsertBookingParams, InsertBookingRow>({
  name: 'insert-booking',
  text: `insert into bookings (id, tenant_id, customer_name, customer_email, customer_phone, notes, metadata,
  service, service_id, resource_id, start_at, end_at, hold_expires_at, blocked_from, blocked_until,
  conversation_id, updated_at)
values ($1::text, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::jsonb, $8::text, $9::text,
  $10::text, $11::timestamptz, $12::timestamptz, $13::timestamptz, $14::timestamptz, $15::timestamptz,
  $16::text, now())
returning id, tenant_id as "tenantId", status, customer_name as "customerName",
  customer_email as "customerEmail", customer_phone as "customerPhone", service, start_at as "startAt",
  end_at as "endAt", notes, metadata, cancellation_reason as "cancellationReason",
  service_id as "serviceId", resource_id as "resourceId", hold_expires_at as "holdExpiresAt",
  blocked_from as "blockedFrom", blocked_until as "blockedUntil", sequence,
  conversation_id as "conversationId", attendance_confirmed_at as "attendanceConfirmedAt",
  created_at as "createdAt", updated_at as "updatedAt"`,
  columns: [
    'id',
    'tenantId',
    'status',
    'customerName',
    'customerEmail',
    'customerPhone',
    'service',
    'startAt',
    'endAt',
    'notes',
    'metadata',
    'cancellationReason',
    'serviceId',
    'resourceId',
    'holdExpiresAt',
    'blockedFrom',
    'blockedUntil',
    'sequence',
    'conversationId',
    'attendanceConfirmedAt',
    'createdAt',
    'updatedAt',
  ],
});
