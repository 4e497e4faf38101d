import type { Booking } from '@/server/db/generated/client';

/** A booking as the REST API and event payloads show it. */
export function serializeBooking(b: Booking) {
  return {
    id: b.id,
    status: b.status,
    customer: { name: b.customerName, email: b.customerEmail, phone: b.customerPhone },
    service: b.service,
    start_at: b.startAt.toISOString(),
    end_at: b.endAt.toISOString(),
    notes: b.notes,
    metadata: (b.metadata as Record<string, unknown> | null) ?? null,
    cancellation_reason: b.cancellationReason,
    service_id: b.serviceId,
    resource_id: b.resourceId,
    hold_expires_at: b.holdExpiresAt?.toISOString() ?? null,
    created_at: b.createdAt.toISOString(),
    updated_at: b.updatedAt.toISOString(),
  };
}

export type BookingResource = ReturnType<typeof serializeBooking>;
