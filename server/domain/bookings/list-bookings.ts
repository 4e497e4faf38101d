// GET /bookings: one page of the tenant's bookings, newest first, each with its payment. The hottest
// read of the API, so it is one statement (the page and each row's payment, through a lateral join
// on `booking_payment`, the one definition of a booking's payment) on the raw `pg` pool as a named prepared statement (parsed and planned once per connection
// and filter combination; unnamed behind a transaction-mode pooler), instead of two Prisma queries:
// 1.5 ms → about 0.4 ms in-process (docs/benchmarks.md). Raw SQL is not tenant-scoped by the Prisma
// extension, so the statement names the tenant itself; only the filters the query uses are written,
// so each combination keeps its index (the cursor walks `(tenant_id, id)`).
import type { z } from 'zod';
import type { Booking } from '@/server/db/generated/client';
import { type Page, paginate } from '@/server/db/pagination';
import { pgPool } from '@/server/db/pool';
import { statementName } from '@/server/db/statement-names';
import { contactPhone } from '@/server/domain/assistant-sessions/customer-scope';
import type { BookingListQuery } from '@/server/domain/bookings/schemas';
import type { OperationContext } from '@/server/domain/context';
import { type BookingResource, serializeBooking } from './serialize';

type Row = Booking & { paymentId: string | null; paymentCheckoutUrl: string | null };

const COLUMNS = `b.id, b.tenant_id as "tenantId", b.status, b.customer_name as "customerName",
  b.customer_email as "customerEmail", b.customer_phone as "customerPhone", b.service,
  b.start_at as "startAt", b.end_at as "endAt", b.notes, b.metadata,
  b.cancellation_reason as "cancellationReason", b.service_id as "serviceId",
  b.resource_id as "resourceId", b.hold_expires_at as "holdExpiresAt", b.blocked_from as "blockedFrom",
  b.blocked_until as "blockedUntil", b.sequence, b.conversation_id as "conversationId",
  b.attendance_confirmed_at as "attendanceConfirmedAt", b.created_at as "createdAt", b.updated_at as "updatedAt",
  p.id as "paymentId", p.checkout_url as "paymentCheckoutUrl"`;

/** Each filter: its condition on `b` for parameter `$n`, and the value it binds (none when unused). */
function filtersOf(query: z.output<typeof BookingListQuery>, before: string | undefined) {
  return [
    ['id', (p: string) => `b.id < ${p}`, before],
    ['status', (p: string) => `b.status = ${p}::"BookingStatus"`, query.status],
    // Case-insensitive, as Prisma's `mode: 'insensitive'` equality.
    ['email', (p: string) => `lower(b.customer_email) = lower(${p})`, query.customer_email],
    ['from', (p: string) => `b.start_at >= ${p}::timestamptz`, query.from],
    ['to', (p: string) => `b.start_at < ${p}::timestamptz`, query.to],
    [
      'phone',
      (p: string) => `b.customer_phone = ${p}`,
      query.customer_phone ? `+${query.customer_phone.replace(/^\+/, '')}` : undefined,
    ],
    ['service', (p: string) => `b.service_id = ${p}`, query.service_id],
    ['resource', (p: string) => `b.resource_id = ${p}`, query.resource_id],
  ] as const;
}

export async function listBookings(
  ctx: OperationContext,
  asked: z.output<typeof BookingListQuery>,
): Promise<Page<BookingResource>> {
  // Under an assistant session: the contact's bookings only (by phone), whatever the filters name; a
  // contact without a phone has none.
  const bound = ctx.actingFor ? contactPhone(ctx.actingFor) : undefined;
  if (bound === null) return { data: [], next_cursor: null };
  const query = bound ? { ...asked, customer_phone: bound, customer_email: undefined } : asked;
  return paginate(
    query,
    async ({ after, take }) => {
      const values: unknown[] = [ctx.tenantId, take];
      const conditions = ['b.tenant_id = $1::uuid'];
      const used: string[] = [];
      for (const [name, condition, value] of filtersOf(query, after.id?.lt)) {
        if (value === undefined || value === null) continue;
        values.push(value);
        conditions.push(condition(`$${values.length}`));
        used.push(name);
      }
      const text = `select ${COLUMNS}
from bookings b
left join lateral booking_payment(b.tenant_id, b.id) p on true
where ${conditions.join(' and ')}
order by b.id desc
limit $2`;
      const name = statementName(`switchboard_list_bookings_${used.join('_') || 'all'}`);
      return (await pgPool().query<Row>({ ...(name ? { name } : {}), text, values })).rows;
    },
    (row) =>
      serializeBooking(
        row,
        row.paymentId ? { id: row.paymentId, checkout_url: row.paymentCheckoutUrl } : null,
      ),
  );
}
