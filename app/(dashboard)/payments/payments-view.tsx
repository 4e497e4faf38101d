'use client';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { CursorList, cursorPages } from '@/app/_components/cursor-list';
import { Time } from '@/app/_components/feedback';
import { formatMoney } from '@/app/_components/money';
import { StatusSelect } from '@/app/_components/status-select';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Code,
  ConfirmDialog,
  EmptyState,
  Input,
  PageHeader,
  StatusBadge,
  Table,
  TBody,
  Td,
  THead,
  Tr,
  useFeedback,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';
import { useViewer } from '@/app/_components/viewer';
import { PAYMENT_STATUSES } from '@/server/client-safe/statuses';
import { PaymentProviderCell, RefundedAmount } from './payment-parts';
import { RefundDialog } from './refund-dialog';

const FILTERS = ['all', ...PAYMENT_STATUSES] as const;
type Filter = (typeof FILTERS)[number];

export function PaymentsView() {
  const trpc = useTRPC();
  const canChange = useViewer().can('payments.write');
  const [filter, setFilter] = useState<Filter>('all');
  const [bookingId, setBookingId] = useState('');
  const payments = useInfiniteQuery(
    trpc.payments.listPayments.infiniteQueryOptions(
      {
        limit: 50,
        ...(filter === 'all' ? {} : { status: filter }),
        ...(bookingId ? { booking_id: bookingId } : {}),
      },
      cursorPages,
    ),
  );
  const feedback = useFeedback();
  const done = (verb: string) => ({
    feedback,
    success: (p: { amount: number; currency: string }) =>
      `Payment of ${formatMoney(p.amount, p.currency)} ${verb}`,
    invalidate: [trpc.payments.pathKey()],
  });
  const succeed = useAction(trpc.payments.succeedPayment.mutationOptions(), done('marked succeeded'));
  const fail = useAction(trpc.payments.failPayment.mutationOptions(), done('marked failed'));
  const refund = useAction(trpc.payments.refundPayment.mutationOptions(), {
    feedback,
    invalidate: [trpc.payments.pathKey()],
    success: (p) =>
      p.status === 'refunded'
        ? `Payment of ${formatMoney(p.amount, p.currency)} refunded`
        : `Refunded ${formatMoney(p.refunded_amount, p.currency)} of ${formatMoney(p.amount, p.currency)} so far`,
  });
  const busy = succeed.isPending || fail.isPending || refund.isPending;

  function filterByBooking(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBookingId(String(new FormData(event.currentTarget).get('booking') ?? '').trim());
  }

  return (
    <>
      <PageHeader
        title="Payments"
        description="Money taken for bookings, in each payment's currency."
        actions={
          <>
            <StatusSelect id="payment-filter" value={filter} options={FILTERS} onChange={setFilter} />
            <form
              onSubmit={filterByBooking}
              aria-label="Filter by booking"
              className="flex items-center gap-2"
            >
              <Input
                name="booking"
                placeholder="Booking id (bkg_…)"
                aria-label="Booking id"
                className="w-52"
              />
              <Button type="submit" variant="secondary" size="sm">
                Filter
              </Button>
            </form>
          </>
        }
      />
      {feedback.node}
      <CursorList
        query={payments}
        empty={
          <EmptyState>
            No payments{filter === 'all' ? '' : ` with status ${filter}`}
            {bookingId ? ` for booking ${bookingId}` : ''}.
          </EmptyState>
        }
      >
        {(rows) => (
          <Table>
            <THead
              columns={['Amount', 'Status', 'Booking', 'Provider', 'Created']}
              actions={canChange ? 'Actions' : undefined}
            />
            <TBody>
              {rows.map((p) => {
                const amount = formatMoney(p.amount, p.currency);
                const action = (
                  label: string,
                  verb: string,
                  run: (input: { id: string }) => Promise<unknown>,
                  destructive = false,
                ) => (
                  <ConfirmDialog
                    trigger={
                      <Button size="sm" variant={destructive ? 'danger' : 'primary'} disabled={busy}>
                        {label}
                      </Button>
                    }
                    title={`${label}: ${amount}?`}
                    description={`The payment ${p.id} ${verb}. This records an event and cannot be undone.`}
                    confirmLabel={label}
                    destructive={destructive}
                    onConfirm={() => run({ id: p.id })}
                  />
                );
                return (
                  <Tr key={p.id} data-testid={`payment-${p.id}`}>
                    <Td className="whitespace-nowrap tabular-nums">
                      {amount}
                      <RefundedAmount payment={p} />
                    </Td>
                    <Td>
                      <StatusBadge status={p.status} />
                    </Td>
                    <Td>
                      {p.booking_id ? <Code>{p.booking_id}</Code> : <span className="text-muted">—</span>}
                    </Td>
                    <Td>
                      <PaymentProviderCell payment={p} />
                    </Td>
                    <Td>
                      <Time value={p.created_at} />
                    </Td>
                    {canChange && (
                      <Td actions>
                        {/* A Stripe payment follows Stripe; only manual ones are moved by hand. */}
                        {p.status === 'pending' &&
                          p.provider === 'manual' &&
                          action('Mark succeeded', 'is marked succeeded', succeed.mutateAsync)}
                        {p.status === 'pending' &&
                          p.provider === 'manual' &&
                          action('Mark failed', 'is marked failed', fail.mutateAsync, true)}
                        {p.status === 'succeeded' && (
                          <RefundDialog
                            payment={p}
                            trigger={
                              <Button size="sm" variant="danger" disabled={busy}>
                                Refund
                              </Button>
                            }
                            onRefund={(value) => refund.mutateAsync({ id: p.id, amount: value })}
                          />
                        )}
                      </Td>
                    )}
                  </Tr>
                );
              })}
            </TBody>
          </Table>
        )}
      </CursorList>
    </>
  );
}
