import { listBookings } from '../../domain/bookings/list-bookings';
import { json, tenantRoute } from '../../http/route';
import { Booking, BookingListQuery } from '../schemas/bookings';
import { listOf } from '../schemas/common';

const tag = 'Bookings';

export const bookingRoutes = [
  tenantRoute({
    method: 'GET',
    path: '/bookings',
    operationId: 'listBookings',
    tag,
    role: 'agent',
    summary: "List the tenant's bookings",
    query: BookingListQuery,
    responses: { 200: { description: 'One page, newest first', schema: listOf(Booking, 'BookingList') } },
    handler: async ({ db, query }) => json(200, await listBookings(db, query)),
  }),
];
