import type { TenantDb } from '@/server/db/tenant-scope';
import { Errors } from '@/server/http/errors';
import { serializePayment } from './serialize';

export async function getPayment(db: TenantDb, _tenantId: string, input: { id: string }) {
  const row = await db.payment.findUnique({ where: { id: input.id } });
  if (!row) throw Errors.notFound('Payment');
  return serializePayment(row);
}
