-- A WhatsApp status receipt on the outbound message it names (apply-receipt.ts): the status moves
-- only from one of `fromStatuses` (the guard that ignores late, repeated and out-of-order receipts),
-- a failure keeps its reason. The row comes back in the shape of Prisma's Message model.
-- @param tenantId
-- @param externalId
-- @param status
-- @param failureReason?
-- @param fromStatuses
update messages set
  status = $3::"MessageStatus",
  failure_reason = coalesce($4::text, failure_reason),
  updated_at = now()
where tenant_id = $1::uuid and external_id = $2::text and direction = 'outbound'
  and status = any($5::"MessageStatus"[])
returning id, tenant_id as "tenantId", conversation_id as "conversationId", direction, text, type,
  template, media, status, external_id as "externalId", failure_reason as "failureReason",
  send_attempts as "sendAttempts", next_send_at as "nextSendAt",
  reminder_booking_id as "reminderBookingId", interactive, created_at as "createdAt",
  updated_at as "updatedAt"
