// The private iCalendar feed of a resource (GET /resources/{id}/calendar.ics?token=…), which Google
// Calendar and Apple Calendar subscribe to: its pending and confirmed bookings (a pending one as
// TENTATIVE) and its time off, from 30 days ago to a year ahead, in UTC. The token is the credential
// (calendar apps cannot send headers); the admin reads and rotates the URL (calendar-token.ts).
import ical, { ICalEventStatus } from 'ical-generator';
import { db } from '@/server/db/client';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { recordAudit } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { constantTimeEqual } from '@/server/security/hashing';
import { calendarFeedUrl, hashCalendarToken, newCalendarToken, openCalendarToken } from './calendar-token';

const DAY = 86_400_000;

/** The feed for a token; a wrong token or resource answers not found (nothing tells which). */
export async function renderCalendarFeed(input: { resourceId: string; token: string }): Promise<string> {
  const hash = hashCalendarToken(input.token);
  // By the token's hash, across tenants: the token names the tenant (the feed has no X-Tenant-ID).
  const resource = await db().resource.findUnique({ where: { calendarTokenHash: hash } });
  if (!resource || !constantTimeEqual(resource.id, input.resourceId)) throw Errors.notFound('Calendar');
  const scoped = forTenant(resource.tenantId);
  const now = Date.now();
  const from = new Date(now - 30 * DAY);
  const until = new Date(now + 365 * DAY);
  const [bookings, timeOff, services] = await Promise.all([
    scoped.booking.findMany({
      where: {
        resourceId: resource.id,
        status: { in: ['pending', 'confirmed'] },
        startAt: { gte: from, lt: until },
      },
      orderBy: { startAt: 'asc' },
      take: 5000,
    }),
    scoped.timeOff.findMany({
      where: { resourceId: resource.id, endAt: { gt: from }, startAt: { lt: until } },
      take: 1000,
    }),
    scoped.service.findMany({ select: { id: true, name: true }, take: 1000 }),
  ]);
  const serviceName = new Map(services.map((s) => [s.id, s.name]));
  const calendar = ical({
    name: resource.name,
    prodId: { company: 'Switchboard', product: 'bookings' },
    ttl: 900,
  });
  for (const b of bookings) {
    const what = (b.serviceId && serviceName.get(b.serviceId)) || b.service || 'Booking';
    calendar.createEvent({
      id: `${b.id}@switchboard`,
      start: b.startAt,
      end: b.endAt,
      stamp: b.updatedAt,
      // Raised by every move of the start or end (RFC 5545 §3.8.7.4): Outlook replaces its copy only
      // when it rises.
      sequence: b.sequence,
      summary: `${b.status === 'pending' ? 'Hold: ' : ''}${what} — ${b.customerName}`,
      description: [b.customerPhone, b.customerEmail, b.notes].filter(Boolean).join('\n') || undefined,
      status: b.status === 'pending' ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
    });
  }
  for (const t of timeOff) {
    calendar.createEvent({
      id: `${t.id}@switchboard`,
      start: t.startAt,
      end: t.endAt,
      stamp: t.createdAt,
      summary: t.reason ? `Time off: ${t.reason}` : 'Time off',
    });
  }
  return calendar.toString();
}

/** The feed URL of a resource, for admins (shown again whenever asked; a resource made before feeds gets a token now). */
export async function getCalendarFeed(ctx: OperationContext, input: { id: string }) {
  const row = await ctx.db.resource.findUnique({ where: { id: input.id } });
  if (!row) throw Errors.notFound('Resource');
  if (row.calendarTokenEnc)
    return { calendar_url: calendarFeedUrl(row.id, openCalendarToken(row.calendarTokenEnc)) };
  return rotateCalendarFeed(ctx, input);
}

/** A new feed token: the old URL stops working at once. Audited. */
export async function rotateCalendarFeed(ctx: OperationContext, input: { id: string }) {
  const token = newCalendarToken();
  return transaction(ctx, async (tx) => {
    const { count } = await (await tx.orm()).resource.updateMany({
      where: { id: input.id },
      data: { calendarTokenHash: token.hash, calendarTokenEnc: token.sealed },
    });
    if (count === 0) throw Errors.notFound('Resource');
    await recordAudit(tx, ctx, {
      action: 'resource.calendar_token_rotated',
      target: { type: 'resource', id: input.id },
    });
    return { calendar_url: calendarFeedUrl(input.id, token.token) };
  });
}
