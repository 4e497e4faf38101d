import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { forTenant } from '@/server/db/tenant-scope';
import { findServiceSlots } from '@/server/domain/availability/find-slots';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
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

      // Two resources with weekly hours and two services: real free slots in the coming week.
      expect(await t.resource.count()).toBe(2);
      const services = await t.service.findMany();
      expect(services.map((s) => s.name).sort()).toEqual(['Dental check-up', 'Teeth cleaning']);
      const today = new Date().toISOString().slice(0, 10);
      const week = new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10);
      for (const service of services) {
        const { days } = await findServiceSlots(operationContext(tenantId, SYSTEM_ACTOR), {
          service_id: service.id,
          start: today,
          end: week,
          time_zone: 'Europe/Madrid',
        });
        expect(Object.values(days).flat().length).toBeGreaterThan(10);
      }
      expect(bookings.filter((b) => b.serviceId).length).toBe(2);

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
