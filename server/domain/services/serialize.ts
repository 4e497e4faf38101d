import type { Service } from '@/server/db/generated/client';
import type { ReminderSpec } from './schemas';

export function serializeService(s: Service) {
  return {
    id: s.id,
    name: s.name,
    duration_minutes: s.durationMinutes,
    resource_ids: s.resourceIds,
    buffer_before_minutes: s.bufferBeforeMinutes,
    buffer_after_minutes: s.bufferAfterMinutes,
    min_notice_minutes: s.minNoticeMinutes,
    booking_window_days: s.bookingWindowDays,
    slot_interval_minutes: s.slotIntervalMinutes ?? s.durationMinutes,
    price:
      s.priceAmount !== null && s.priceCurrency ? { amount: s.priceAmount, currency: s.priceCurrency } : null,
    payment: s.payment,
    deposit_amount: s.depositAmount,
    reminders: remindersOf(s),
    is_active: s.isActive,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}

export function remindersOf(s: { reminders: unknown }): ReminderSpec[] {
  // Reminders stored before `ask` existed do not ask.
  return Array.isArray(s.reminders)
    ? (s.reminders as unknown as ReminderSpec[]).map((r) => ({ ...r, ask: r.ask ?? false }))
    : [];
}

/** What the availability engine needs of a service. */
export function engineService(s: Service) {
  return {
    durationMinutes: s.durationMinutes,
    bufferBeforeMinutes: s.bufferBeforeMinutes,
    bufferAfterMinutes: s.bufferAfterMinutes,
    minNoticeMinutes: s.minNoticeMinutes,
    bookingWindowDays: s.bookingWindowDays,
    slotIntervalMinutes: s.slotIntervalMinutes,
  };
}

export type ServiceResource = ReturnType<typeof serializeService>;
