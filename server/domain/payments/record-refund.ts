import type { UnitOfWork } from '@/server/db/unit-of-work';
import { logger } from '@/server/log';
import { recordEvent } from '@/server/webhooks/outbox';
import { serializePayment } from './serialize';

/**
 * Records what Stripe says has been refunded on a payment's charge so far (a running total), inside the
 * caller's unit of work. The total only ever rises: a repeated or late report of a smaller total changes
 * nothing, so refund answers and `charge.refunded` events can arrive in any order and any number of
 * times. A payment that reaches its whole amount becomes `refunded` (one payment.refunded, by whichever
 * report got there first); a partial total keeps it `succeeded` and emits nothing.
 */
export async function recordRefundedTotal(
  tx: UnitOfWork,
  payment: { id: string; amount: number },
  total: number,
): Promise<'applied' | 'no_change'> {
  const { tenantId } = tx;
  if (total > payment.amount) {
    logger().warn(
      { tenant_id: tenantId, payment_id: payment.id, total, amount: payment.amount },
      'Stripe reports more refunded than the payment: recorded as a full refund',
    );
  }
  const refunded = Math.min(total, payment.amount);
  const full = refunded === payment.amount;
  const [row] = await (await tx.orm()).payment.updateManyAndReturn({
    where: { id: payment.id, status: 'succeeded', refundedAmount: { lt: refunded } },
    data: { refundedAmount: refunded, ...(full ? { status: 'refunded' as const } : {}) },
  });
  if (!row) return 'no_change';
  if (full) await recordEvent(tx, { tenantId, type: 'payment.refunded', object: serializePayment(row) });
  return 'applied';
}
