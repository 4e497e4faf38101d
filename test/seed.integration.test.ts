import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { forTenant } from '@/server/db/tenant-scope';
import { DEMO, seedDemoTenant } from '@/server/launcher/seed';

describe('demo seed', () => {
  it(
    'creates bookings, conversations (one waiting for a person), messages and payments ' +
      'with their events, once',
    async () => {
      const lines: string[] = [];
      await seedDemoTenant((line) => lines.push(line), 3000);
      const user = await db().user.findUniqueOrThrow({
        where: { email: DEMO.adminEmail },
        include: { memberships: true },
      });
      const tenantId = user.memberships[0].tenantId;
      const t = forTenant(tenantId);

      const bookings = await t.booking.findMany();
      expect(new Set(bookings.map((b) => b.status))).toEqual(
        new Set(['pending', 'confirmed', 'cancelled', 'completed']),
      );
      const payments = await t.payment.findMany();
      expect(new Set(payments.map((p) => p.status))).toEqual(new Set(['pending', 'succeeded', 'refunded']));
      const conversations = await t.conversation.findMany();
      expect(conversations.map((c) => c.status).sort()).toEqual(['open', 'pending_human', 'resolved']);
      const waiting = conversations.find((c) => c.status === 'pending_human');
      expect(waiting?.handoffReason).toBeTruthy();
      expect(await t.message.count({ where: { conversationId: waiting?.id } })).toBe(2);

      const types = new Set((await t.event.findMany()).map((e) => e.type));
      for (const type of [
        'booking.created',
        'booking.confirmed',
        'booking.rescheduled',
        'booking.cancelled',
        'booking.completed',
        'payment.created',
        'payment.succeeded',
        'payment.refunded',
        'conversation.created',
        'conversation.message.received',
        'conversation.handoff.requested',
        'conversation.assigned',
        'conversation.resolved',
      ]) {
        expect(types).toContain(type);
      }

      // A second start finds the tenant and adds nothing.
      await seedDemoTenant(() => {}, 3000);
      expect(await t.booking.count()).toBe(bookings.length);
      expect(lines.some((l) => l.includes(tenantId))).toBe(true);
    },
  );
});
