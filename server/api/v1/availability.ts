import { findServiceSlots } from '@/server/domain/availability/find-slots';
import { SlotList, SlotQuery } from '@/server/domain/availability/schemas';
import { json, tenantRoute } from '@/server/http/route';

export const availabilityRoutes = [
  tenantRoute({
    method: 'GET',
    path: '/slots',
    operationId: 'listSlots',
    tag: 'Bookings',
    permission: 'bookings.read',
    summary: 'Free times of a service',
    description:
      'The local dates start…end (inclusive, at most 31 days, else 422) of time_zone (default UTC), each present ' +
      'with its free slots: every start on the service’s grid (from the start of each working interval of a ' +
      'resource, every slot_interval_minutes of elapsed time, ending inside the interval) where at least one of its ' +
      'active resources is free. Free means: inside its weekly hours (expanded per local date in the resource’s ' +
      'zone, so DST days neither lose nor double a slot), start at least min_notice_minutes from now and before ' +
      'booking_window_days, and [start − buffer_before, end + buffer_after) overlapping neither its time off nor ' +
      'the blocked interval of any pending or confirmed booking (intervals are half-open). start/end are UTC. ' +
      'To offer new times for a booking being moved, pass reschedule_booking_id: its own interval then does not ' +
      'count, so a time overlapping where it is now can be offered (as POST /bookings/{id}/reschedule allows).',
    query: SlotQuery,
    responses: { 200: { description: 'Free slots per local date', schema: SlotList } },
    handler: async ({ ctx, query }) => json(200, await findServiceSlots(ctx, query)),
  }),
];
