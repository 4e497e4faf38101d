-- A new booking, pending (create-booking.ts): free-form (no service, blocking nothing) or placed on a
-- resource of its service with the interval it blocks, which the exclusion constraint checks. The
-- row comes back in the shape of Prisma's Booking model.
-- @param id
-- @param tenantId
-- @param customerName
-- @param customerEmail?
-- @param customerPhone?
-- @param notes?
-- @param metadata?
-- @param service?
-- @param serviceId?
-- @param resourceId?
-- @param startAt
-- @param endAt
-- @param holdExpiresAt?
-- @param blockedFrom?
-- @param blockedUntil?
-- @param conversationId?
insert into bookings (id, tenant_id, customer_name, customer_email, customer_phone, notes, metadata,
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
  created_at as "createdAt", updated_at as "updatedAt"
