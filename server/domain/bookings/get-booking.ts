import type { TenantDb } from '@/server/db/tenant-scope';
import { Errors } from '@/server/http/errors';
import { serializeBooking } from './serialize';

/** One booking of the tenant; another tenant's id is simply not found. */
export async function getBooking(db: TenantDb, _tenantId: string, input: { id: string }) {
  const row = await db.booking.findUnique({ where: { id: input.id } });
  if (!row) throw Errors.notFound('Booking');
  return serializeBooking(row);
}
