'use client';
/**
 * A booking's payment, for the booking details: status, amount, the Stripe checkout link while it is
 * pending, and what was refunded. Self-contained: give it a booking id; it reads the booking's
 * payments itself (`payments.listPayments({booking_id})`, newest first) and shows nothing to a viewer
 * who may not read payments.
 *
 *   <BookingPayment bookingId={booking.id} />
 */
import { useQuery } from '@tanstack/react-query';
import { formatMoney } from '@/app/_components/money';
import { useTRPC } from '@/app/_components/trpc';
import { ErrorNotice, StatusBadge } from '@/app/_components/ui';
import { useViewer } from '@/app/_components/viewer';
import { PaymentProviderCell, RefundedAmount } from '../payments/payment-parts';

export function BookingPayment({ bookingId }: { bookingId: string }) {
  const canRead = useViewer().can('payments.read');
  if (!canRead) return null;
  return <BookingPaymentList bookingId={bookingId} />;
}

function BookingPaymentList({ bookingId }: { bookingId: string }) {
  const trpc = useTRPC();
  const payments = useQuery(trpc.payments.listPayments.queryOptions({ booking_id: bookingId, limit: 5 }));
  if (payments.isPending) return <p className="text-sm text-muted">Loading payment…</p>;
  if (payments.error) return <ErrorNotice error={payments.error} />;
  const rows = payments.data.data;
  return (
    <section
      aria-label="Payment"
      data-testid={`booking-payment-${bookingId}`}
      className="flex flex-col gap-2"
    >
      <h3 className="text-sm font-semibold">Payment</h3>
      {rows.length === 0 ? (
        <p className="text-sm text-muted">No payment for this booking.</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {rows.map((p) => (
            <li
              key={p.id}
              className="flex flex-wrap items-start justify-between gap-2 rounded-control border border-border px-3 py-2"
            >
              <div className="min-w-0">
                <div className="tabular-nums">{formatMoney(p.amount, p.currency)}</div>
                <RefundedAmount payment={p} />
              </div>
              <StatusBadge status={p.status} />
              <div className="basis-full text-sm">
                <PaymentProviderCell payment={p} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
