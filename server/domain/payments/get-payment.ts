import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { serializePayment } from './serialize';

export async function getPayment(ctx: OperationContext, input: { id: string }) {
  const { db } = ctx;
  const row = await db.payment.findUnique({ where: { id: input.id } });
  if (!row) throw Errors.notFound('Payment');
  return serializePayment(row);
}
