import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { presentBooking } from './serialize';

/** One booking of the tenant; another tenant's id is simply not found. */
export async function getBooking(ctx: OperationContext, input: { id: string }) {
  const { db } = ctx;
  const row = await db.booking.findUnique({ where: { id: input.id } });
  if (!row) throw Errors.notFound('Booking');
  return presentBooking(db, row);
}
