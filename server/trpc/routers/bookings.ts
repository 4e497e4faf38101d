// Bookings for admins and agents alike (CONTRACT §2 roles); transitions are the domain's.
import { z } from 'zod';
import { cancelBooking } from '@/server/domain/bookings/cancel-booking';
import { completeBooking } from '@/server/domain/bookings/complete-booking';
import { confirmBooking } from '@/server/domain/bookings/confirm-booking';
import { listBookings } from '@/server/domain/bookings/list-bookings';
import { BookingListQuery } from '@/server/domain/bookings/schemas';
import { createTRPCRouter, dashboardPage, IdInput, protectedProcedure } from '@/server/trpc/init';

export const bookingsRouter = createTRPCRouter({
  list: protectedProcedure
    .input(BookingListQuery.partial().extend(dashboardPage(50)))
    .query(({ ctx, input }) => listBookings(ctx, input)),
  confirm: protectedProcedure.input(IdInput).mutation(({ ctx, input }) => confirmBooking(ctx, input)),
  complete: protectedProcedure.input(IdInput).mutation(({ ctx, input }) => completeBooking(ctx, input)),
  cancel: protectedProcedure
    .input(IdInput.extend({ reason: z.string().trim().max(500).nullable().optional() }))
    .mutation(({ ctx, input }) => cancelBooking(ctx, input)),
});
