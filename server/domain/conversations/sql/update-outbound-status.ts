// Generated from update-outbound-status.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type UpdateOutboundStatusParams = [
  tenantId: string,
  externalId: string,
  status: 'received' | 'queued' | 'sent' | 'delivered' | 'read' | 'failed',
  failureReason: string | null,
  fromStatuses: ('received' | 'queued' | 'sent' | 'delivered' | 'read' | 'failed')[],
];

export interface UpdateOutboundStatusRow {
  id: string;
  tenantId: string;
  conversationId: string;
  direction: 'inbound' | 'outbound';
  text: string;
  type: string;
  template: unknown | null;
  media: unknown | null;
  status: 'received' | 'queued' | 'sent' | 'delivered' | 'read' | 'failed';
  externalId: string | null;
  failureReason: string | null;
  sendAttempts: number;
  nextSendAt: Date | null;
  reminderBookingId: string | null;
  interactive: unknown | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A WhatsApp status receipt on the outbound message it names (apply-receipt.ts): the status moves
 * only from one of `fromStatuses` (the guard that ignores late, repeated and out-of-order receipts),
 * a failure keeps its reason. The row comes back in the shape of Prisma's Message model.
 */
export const updateOutboundStatus = typedSql<UpdateOutboundStatusParams, UpdateOutboundStatusRow>({
  name: 'update-outbound-status',
  text: `update messages set
  status = $3::"MessageStatus",
  failure_reason = coalesce($4::text, failure_reason),
  updated_at = now()
where tenant_id = $1::uuid and external_id = $2::text and direction = 'outbound'
  and status = any($5::"MessageStatus"[])
returning id, tenant_id as "tenantId", conversation_id as "conversationId", direction, text, type,
  template, media, status, external_id as "externalId", failure_reason as "failureReason",
  send_attempts as "sendAttempts", next_send_at as "nextSendAt",
  reminder_booking_id as "reminderBookingId", interactive, created_at as "createdAt",
  updated_at as "updatedAt"`,
  columns: [
    'id',
    'tenantId',
    'conversationId',
    'direction',
    'text',
    'type',
    'template',
    'media',
    'status',
    'externalId',
    'failureReason',
    'sendAttempts',
    'nextSendAt',
    'reminderBookingId',
    'interactive',
    'createdAt',
    'updatedAt',
  ],
});
