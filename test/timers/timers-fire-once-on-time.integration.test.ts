// Timers on the worker engine (server/runtime/timers/worker.ts) against a real database: holds expire and
// reminders reach WhatsApp (a stand-in Graph API on loopback) within 5 s of their time, exactly once,
// with two workers on one database and across a restart; a cancelled or moved booking gets no
// reminder for its old time; the conversation timers fire on time too (no 30 s sweep).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '@/server/client-safe/time-format';
import { resetSettingsCache } from '@/server/config/settings';
import { pgPool } from '@/server/db/pool';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { handoffConversation } from '@/server/domain/conversations/handoff-conversation';
import { receiveMessage } from '@/server/domain/conversations/receive-message';
import { sendScheduledMessages } from '@/server/domain/conversations/send-scheduled-messages';
import { startTimerWorker, type TimerWorker } from '@/server/runtime/timers/worker';
import { markFired } from '@/server/timers/plan';
import {
  dayFromNow,
  eventually,
  everyDay,
  givenResource,
  givenService,
  serviceBooking,
  utc,
} from '../support/booking-fixtures';
import { givenChannel } from '../support/builders';
import { eventsOf, expectProblemCode } from '../support/domain-fixtures';
import { apiSuite, fakeGraphSuite } from '../support/harness';

beforeAll(() => {
  // The hand-off SLA and the window warning short enough to watch them fire.
  Object.assign(process.env, { HANDOFF_SLA: '2s', WHATSAPP_WINDOW_WARNING: `${24 * 3600 - 3}s` });
  resetSettingsCache();
});
afterAll(() => {
  delete process.env.HANDOFF_SLA;
  delete process.env.WHATSAPP_WINDOW_WARNING;
  resetSettingsCache();
});
const graph = fakeGraphSuite();
const { tenant: a } = apiSuite({ agent: true });

let worker: TimerWorker;
beforeAll(async () => {
  worker = await startTimerWorker();
});
afterAll(() => worker?.stop());

const ON_TIME_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function allDay() {
  return givenResource(a.admin, {
    time_zone: 'Europe/Madrid',
    weekly_hours: everyDay([{ start: '00:00', end: '24:00' }]),
  });
}

describe('holds: a pending booking not confirmed by hold_expires_at becomes expired within 5 s', () => {
  it('expires on time, records booking.expired once, and frees the slot', async () => {
    const r = await allDay();
    const s = await givenService(a.admin, [r.id]);
    const start = utc(dayFromNow(3), '10:00');
    const hold = new Date(Date.now() + 1_500);
    const booking = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, start, { hold_expires_at: hold.toISOString() }),
    });
    expect(booking.body).toMatchObject({ status: 'pending', hold_expires_at: hold.toISOString() });
    expectProblemCode(
      await a.agent('POST', '/bookings', { body: serviceBooking(s.id, start) }),
      409,
      'slot_unavailable',
    );
    const [event] = await eventually(async () => {
      const events = await eventsOf(a.tenantId, { type: 'booking.expired', objectId: booking.body.id });
      expect(events).toHaveLength(1);
      return events;
    });
    expect(Date.parse(event.created_at) - hold.getTime()).toBeGreaterThanOrEqual(0);
    expect(Date.parse(event.created_at) - hold.getTime()).toBeLessThan(ON_TIME_MS);
    expect(event.data.object.status).toBe('expired');
    // The slot is free again, and confirming the expired hold is refused.
    expect((await a.agent('POST', '/bookings', { body: serviceBooking(s.id, start) })).status).toBe(201);
    expectProblemCode(
      await a.agent('POST', `/bookings/${booking.body.id}/confirm`),
      409,
      'invalid_transition',
    );
    await sleep(1_000);
    expect(await eventsOf(a.tenantId, { type: 'booking.expired', objectId: booking.body.id })).toHaveLength(
      1,
    );
  });

  it('a hold confirmed in time does not expire', async () => {
    const r = await allDay();
    const s = await givenService(a.admin, [r.id]);
    const hold = new Date(Date.now() + 1_500).toISOString();
    const kept = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(dayFromNow(3), '12:00'), { hold_expires_at: hold }),
    });
    expect((await a.agent('POST', `/bookings/${kept.body.id}/confirm`)).body.status).toBe('confirmed');
    await sleep(3_000);
    expect((await a.agent('GET', `/bookings/${kept.body.id}`)).body.status).toBe('confirmed');
    expect(await eventsOf(a.tenantId, { type: 'booking.expired', objectId: kept.body.id })).toHaveLength(0);
  });
});

/** A WhatsApp channel, and a service on an all-day resource with a 1-minute reminder through it. */
async function reminderSetup() {
  const phoneNumberId = String(300_000_000 + Math.floor(Math.random() * 1e8));
  const channel = await givenChannel(a.admin, phoneNumberId);
  const r = await allDay();
  const s = await givenService(a.admin, [r.id], {
    name: 'Dental check-up',
    reminders: [
      {
        before_minutes: 1,
        channel_id: channel.id,
        template: { name: 'appointment_reminder', language: 'es' },
      },
    ],
  });
  const phone = `3460${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const sendsTo = () =>
    graph.requests.filter(
      (q) =>
        q.method === 'POST' &&
        q.path.includes(`/${phoneNumberId}/messages`) &&
        (q.body as { to?: string })?.to === phone,
    );
  return { channel, resource: r, service: s, phone, sendsTo, phoneNumberId };
}

/** A start `ms` after 1 minute from now (so its 1-minute reminder is due in `ms`), on the second. */
const startIn = (ms: number) => new Date(Math.ceil((Date.now() + 60_000 + ms) / 1000) * 1000);

describe('reminders over WhatsApp templates: on time, once, in the contact’s conversation', () => {
  it('sends the template with name, service and local start within 5 s, once, and records booking.reminder.sent', async () => {
    const { service, phone, sendsTo, channel } = await reminderSetup();
    const start = startIn(2_500);
    const due = start.getTime() - 60_000;
    const booking = await a.agent('POST', '/bookings', {
      body: serviceBooking(service.id, start.toISOString(), {
        customer: { name: 'Grace Hopper', phone: `+${phone}` },
      }),
    });
    await a.agent('POST', `/bookings/${booking.body.id}/confirm`);
    const [sent] = await eventually(async () => {
      const list = sendsTo();
      expect(list).toHaveLength(1);
      return list;
    }, 10_000);
    const [event] = await eventually(async () => {
      const events = await eventsOf(a.tenantId, { type: 'booking.reminder.sent', objectId: booking.body.id });
      expect(events).toHaveLength(1);
      return events;
    });
    expect(Date.parse(event.created_at) - due).toBeLessThan(ON_TIME_MS);
    expect(Date.parse(event.created_at)).toBeGreaterThanOrEqual(due);
    expect(sent.body).toMatchObject({
      messaging_product: 'whatsapp',
      to: phone,
      type: 'template',
      template: {
        name: 'appointment_reminder',
        language: { code: 'es' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Grace Hopper' },
              { type: 'text', text: 'Dental check-up' },
              { type: 'text', text: formatDateTime(start, 'Europe/Madrid') },
            ],
          },
        ],
      },
    });
    // In the conversation with that contact on that channel (started for it), as a sent template.
    const conversation = await forTenant(a.tenantId).conversation.findFirstOrThrow({
      where: { channelId: channel.id, contactPhone: phone },
    });
    const messages = await forTenant(a.tenantId).message.findMany({
      where: { conversationId: conversation.id },
    });
    expect(messages.map((m) => [m.type, m.status])).toEqual([['template', 'sent']]);
    await sleep(2_000);
    expect(sendsTo()).toHaveLength(1);
  });

  it("a reminder Meta's rate limit held back is sent by the scheduled-send retry, then booking.reminder.sent", async () => {
    const { service, phone, sendsTo, phoneNumberId } = await reminderSetup();
    graph.failFor(phoneNumberId, 400, { error: { message: '(#130429) Rate limit hit', code: 130429 } }, 1);
    const start = startIn(1_500);
    const booking = await a.agent('POST', '/bookings', {
      body: serviceBooking(service.id, start.toISOString(), { customer: { name: 'X', phone } }),
    });
    await a.agent('POST', `/bookings/${booking.body.id}/confirm`);
    await eventually(async () => expect(sendsTo()).toHaveLength(1), 8_000);
    await sleep(500);
    expect(
      await eventsOf(a.tenantId, { type: 'booking.reminder.sent', objectId: booking.body.id }),
    ).toHaveLength(0);
    // The periodic send-scheduled-messages job (2 s after the refusal) sends it again.
    await sendScheduledMessages(new Date(Date.now() + 3_000));
    expect(sendsTo()).toHaveLength(2);
    expect(
      await eventsOf(a.tenantId, { type: 'booking.reminder.sent', objectId: booking.body.id }),
    ).toHaveLength(1);
  });

  it('a booking cancelled before its reminder gets none', async () => {
    const { service, phone, sendsTo } = await reminderSetup();
    const start = startIn(2_000);
    const booking = await a.agent('POST', '/bookings', {
      body: serviceBooking(service.id, start.toISOString(), { customer: { name: 'X', phone } }),
    });
    await a.agent('POST', `/bookings/${booking.body.id}/confirm`);
    await a.agent('POST', `/bookings/${booking.body.id}/cancel`, { body: {} });
    await sleep(5_000);
    expect(sendsTo()).toHaveLength(0);
    expect(
      await eventsOf(a.tenantId, { type: 'booking.reminder.sent', objectId: booking.body.id }),
    ).toHaveLength(0);
  });

  it('a rescheduled booking gets none for its old time and one for its new time', async () => {
    const { service, phone, sendsTo } = await reminderSetup();
    const start = startIn(1_500);
    const booking = await a.agent('POST', '/bookings', {
      body: serviceBooking(service.id, start.toISOString(), { customer: { name: 'X', phone } }),
    });
    await a.agent('POST', `/bookings/${booking.body.id}/confirm`);
    const moved = new Date(start.getTime() + 4_000);
    const res = await a.agent('POST', `/bookings/${booking.body.id}/reschedule`, {
      body: { start_at: moved.toISOString() },
    });
    expect(res.status).toBe(200);
    await sleep(2_500); // past the old reminder time (start - 60 s), before the new one
    expect(sendsTo()).toHaveLength(0);
    await eventually(async () => expect(sendsTo()).toHaveLength(1), 8_000);
    // Recorded right after WhatsApp accepted the send.
    const [event] = await eventually(async () => {
      const events = await eventsOf(a.tenantId, { type: 'booking.reminder.sent', objectId: booking.body.id });
      expect(events).toHaveLength(1);
      return events;
    });
    expect(Date.parse(event.created_at) - (moved.getTime() - 60_000)).toBeLessThan(ON_TIME_MS);
  });

  it('a reminder already due when the booking is confirmed is not sent', async () => {
    const { service, phone, sendsTo } = await reminderSetup();
    const start = new Date(Date.now() + 30_000); // its 1-minute reminder was due 30 s ago
    const booking = await a.agent('POST', '/bookings', {
      body: serviceBooking(service.id, start.toISOString(), { customer: { name: 'X', phone } }),
    });
    await a.agent('POST', `/bookings/${booking.body.id}/confirm`);
    await sleep(2_500);
    expect(sendsTo()).toHaveLength(0);
    const { rows } = await pgPool().query('select count(*)::int as n from timers where subject_id = $1', [
      booking.body.id,
    ]);
    expect(rows[0].n).toBe(0);
  });
});

describe('exactly once: two workers on one database, and a restart', () => {
  it('two workers racing for 30 due holds expire each exactly once', async () => {
    const second = await startTimerWorker();
    try {
      const r = await allDay();
      const s = await givenService(a.admin, [r.id], { duration_minutes: 15 });
      // Far enough ahead that all 30 are made before any is due, even on a loaded machine; then they fall
      // due together, with both workers claiming.
      const hold = new Date(Date.now() + 15_000).toISOString();
      const day = dayFromNow(4);
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const minute = String((i * 15) % 60).padStart(2, '0');
        const hour = String(8 + Math.floor((i * 15) / 60)).padStart(2, '0');
        const res = await a.agent('POST', '/bookings', {
          body: serviceBooking(s.id, utc(day, `${hour}:${minute}`), { hold_expires_at: hold }),
        });
        expect(res.status, res.text).toBe(201);
        ids.push(res.body.id);
      }
      await eventually(async () => {
        const events = await eventsOf(a.tenantId, { type: 'booking.expired' });
        expect(ids.every((id) => events.some((e) => e.data.object.id === id))).toBe(true);
      }, 30_000);
      await sleep(1_000);
      const events = await eventsOf(a.tenantId, { type: 'booking.expired' });
      for (const id of ids) expect(events.filter((e) => e.data.object.id === id)).toHaveLength(1);
    } finally {
      await second.stop();
    }
  }, 60_000);

  it('a timer due while no worker runs fires once after the restart, and never again', async () => {
    await worker.stop();
    const r = await allDay();
    const s = await givenService(a.admin, [r.id]);
    const hold = new Date(Date.now() + 1_000).toISOString();
    const booking = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(dayFromNow(4), '20:00'), { hold_expires_at: hold }),
    });
    await sleep(2_000);
    expect((await a.agent('GET', `/bookings/${booking.body.id}`)).body.status).toBe('pending');
    worker = await startTimerWorker();
    await eventually(
      async () => expect((await a.agent('GET', `/bookings/${booking.body.id}`)).body.status).toBe('expired'),
      5_000,
    );
    await worker.stop();
    worker = await startTimerWorker();
    await sleep(1_000);
    expect(await eventsOf(a.tenantId, { type: 'booking.expired', objectId: booking.body.id })).toHaveLength(
      1,
    );
  });

  it('marking a timer fired succeeds once per generation (a re-planned or fired timer refuses)', async () => {
    const r = await allDay();
    const s = await givenService(a.admin, [r.id]);
    const hold = new Date(Date.now() + 3_600_000).toISOString();
    const booking = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(dayFromNow(4), '22:00'), { hold_expires_at: hold }),
    });
    const timer = await forTenant(a.tenantId).timer.findFirstOrThrow({
      where: { subjectId: booking.body.id },
    });
    const scope = { tenantId: a.tenantId };
    expect(
      await transaction(scope, (tx) => markFired(tx, { id: timer.id, generation: timer.generation + 1 })),
    ).toBe(false);
    const both = await Promise.all([
      transaction(scope, (tx) => markFired(tx, timer)),
      transaction(scope, (tx) => markFired(tx, timer)),
    ]);
    expect(both.filter(Boolean)).toHaveLength(1);
  });
});

describe('conversation timers fire on time (no 30 s sweep)', () => {
  it('conversation.handoff.overdue within 5 s of HANDOFF_SLA, once', async () => {
    const conversation = await a.admin('POST', '/conversations', {
      body: { channel: 'web', contact: { name: 'V' } },
    });
    const ctx = operationContext(a.tenantId, SYSTEM_ACTOR);
    const handed = await handoffConversation(ctx, { id: conversation.body.id, reason: 'Wants a person' });
    const due = Date.parse(handed.handoff_requested_at as string) + 2_000;
    const [event] = await eventually(async () => {
      const events = await eventsOf(a.tenantId, {
        type: 'conversation.handoff.overdue',
        objectId: conversation.body.id,
      });
      expect(events).toHaveLength(1);
      return events;
    });
    expect(Date.parse(event.created_at) - due).toBeLessThan(ON_TIME_MS);
    expect(Date.parse(event.created_at)).toBeGreaterThanOrEqual(due);
    await sleep(1_000);
    expect(
      await eventsOf(a.tenantId, { type: 'conversation.handoff.overdue', objectId: conversation.body.id }),
    ).toHaveLength(1);
  });

  it('conversation.window.expiring within 5 s of WHATSAPP_WINDOW_WARNING before the window closes, once', async () => {
    const channel = await givenChannel(a.admin, String(400_000_000 + Math.floor(Math.random() * 1e8)));
    const from = `4915${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const ctx = operationContext(a.tenantId, SYSTEM_ACTOR);
    const sentAt = new Date();
    await receiveMessage(ctx, {
      channelId: channel.id,
      from,
      externalId: `wamid.${from}`,
      text: 'Hola',
      sentAt,
    } as Parameters<typeof receiveMessage>[1]);
    const conversation = await forTenant(a.tenantId).conversation.findFirstOrThrow({
      where: { contactPhone: from },
    });
    const due = (conversation.windowExpiresAt as Date).getTime() - (24 * 3600 - 3) * 1000;
    const [event] = await eventually(async () => {
      const events = await eventsOf(a.tenantId, {
        type: 'conversation.window.expiring',
        objectId: conversation.id,
      });
      expect(events).toHaveLength(1);
      return events;
    });
    expect(Date.parse(event.created_at) - due).toBeLessThan(ON_TIME_MS);
    expect(Date.parse(event.created_at)).toBeGreaterThanOrEqual(due - 5);
  });
});
