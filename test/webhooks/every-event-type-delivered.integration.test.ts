// End to end: every event type of the catalog (but the webhook.* ones) produced by real API or inbound
// WhatsApp calls reaches a subscribed receiver, verifiable with the standardwebhooks library, with
// data.object exactly as the REST API returns the resource.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPE_NAMES } from '@/server/client-safe/event-catalog';
import { forTenant } from '@/server/db/tenant-scope';
import { confirmAttendance } from '@/server/domain/bookings/confirm-attendance';
import { expireHeldBooking } from '@/server/domain/bookings/expire-hold';
import { sendBookingReminder } from '@/server/domain/bookings/send-reminder';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { recordConversationTimers } from '@/server/domain/conversations/conversation-timers';
import { type DeliveryWorker, startDeliveryWorker } from '@/server/runtime/deliveries/worker';
import { hubSignature } from '@/server/whatsapp/signature';
import {
  dayFromNow,
  everyDay,
  givenResource,
  givenService,
  serviceBooking,
  utc,
} from '../support/booking-fixtures';
import { bookingBody, givenChannel, givenEndpoint } from '../support/builders';
import { eventsOf } from '../support/domain-fixtures';
import { receipt, textMessage, whatsappPayload } from '../support/fake-graph';
import { apiSuite, fakeGraphSuite } from '../support/harness';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

const APP_SECRET = 'e2e-whatsapp-app-secret';

let worker: DeliveryWorker;
let receiver: Receiver;

fakeGraphSuite({ WHATSAPP_APP_SECRET: APP_SECRET });
const { api, tenant: t } = apiSuite({ agent: true });
beforeAll(async () => {
  worker = await startDeliveryWorker({ pollIntervalMs: 20 });
  receiver = await startReceiver();
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
});

function inbound(payload: object) {
  const raw = JSON.stringify(payload);
  return api('POST', '/channels/whatsapp/webhook', {
    rawBody: raw,
    headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': hubSignature(raw, APP_SECRET) },
  });
}

describe('event delivery for bookings, payments and conversations', () => {
  it('delivers every event type with the REST representation as data.object', async () => {
    const secret = (await givenEndpoint(t.admin, receiver.url, ['*'])).webhook_secret;
    /** What the API answered for each change, by event type: the receiver must see exactly these objects. */
    const expected = new Map<string, object>();

    // Bookings
    const booking = await t.agent('POST', '/bookings', {
      body: bookingBody({ customer: { name: 'Eve' }, end_at: '2026-12-01T10:00:00Z' }),
    });
    expected.set('booking.created', booking.body);
    expected.set('booking.confirmed', (await t.agent('POST', `/bookings/${booking.body.id}/confirm`)).body);
    expected.set(
      'booking.rescheduled',
      (
        await t.agent('PATCH', `/bookings/${booking.body.id}`, {
          body: { start_at: '2026-12-01T11:00:00Z', end_at: '2026-12-01T12:00:00Z' },
        })
      ).body,
    );
    expected.set('booking.completed', (await t.agent('POST', `/bookings/${booking.body.id}/complete`)).body);
    const other = await t.agent('POST', '/bookings', {
      body: bookingBody({
        customer: { name: 'Mallory' },
        start_at: '2026-12-02T09:00:00Z',
        end_at: '2026-12-02T10:00:00Z',
      }),
    });
    expected.set(
      'booking.cancelled',
      (await t.agent('POST', `/bookings/${other.body.id}/cancel`, { body: { reason: 'no' } })).body,
    );

    // The booking states of holds and no-shows.
    const lateCustomer = await t.agent('POST', '/bookings', {
      body: bookingBody({
        customer: { name: 'Late' },
        start_at: '2026-01-05T09:00:00Z',
        end_at: '2026-01-05T10:00:00Z',
      }),
    });
    await t.agent('POST', `/bookings/${lateCustomer.body.id}/confirm`);
    expected.set(
      'booking.no_show',
      (await t.agent('POST', `/bookings/${lateCustomer.body.id}/no-show`)).body,
    );
    const resource = await givenResource(t.admin, {
      weekly_hours: everyDay([{ start: '00:00', end: '24:00' }]),
    });
    const held = await t.agent('POST', '/bookings', {
      body: serviceBooking((await givenService(t.admin, [resource.id])).id, utc(dayFromNow(2), '10:00'), {
        hold_expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      }),
    });
    await forTenant(t.tenantId).booking.update({
      where: { id: held.body.id },
      data: { holdExpiresAt: new Date() },
    });
    const holdTimer = await forTenant(t.tenantId).timer.findFirstOrThrow({
      where: { subjectId: held.body.id },
    });
    expect(await expireHeldBooking({ ...holdTimer, kind: 'booking.hold' })).toBe('expired');
    expected.set('booking.expired', (await t.agent('GET', `/bookings/${held.body.id}`)).body);

    // Payments
    const payment = await t.admin('POST', '/payments', {
      body: { amount: 2500, currency: 'EUR', booking_id: booking.body.id },
    });
    expected.set('payment.created', payment.body);
    expected.set('payment.succeeded', (await t.admin('POST', `/payments/${payment.body.id}/succeed`)).body);
    expected.set('payment.refunded', (await t.admin('POST', `/payments/${payment.body.id}/refund`)).body);
    const declined = await t.admin('POST', '/payments', { body: { amount: 900, currency: 'USD' } });
    expected.set('payment.failed', (await t.admin('POST', `/payments/${declined.body.id}/fail`)).body);

    // Conversations over WhatsApp: inbound, outbound, receipts, hand-off, assignment, resolution
    const number = String(200_000_000 + Math.floor(Math.random() * 1e8));
    const channel = await givenChannel(t.admin, number);
    // A booking reminder over that channel (its timer fired here rather than waited for).
    const reminded = await givenService(t.admin, [resource.id], {
      reminders: [
        { before_minutes: 60, channel_id: channel.id, template: { name: 'reminder', language: 'en' } },
      ],
    });
    const soon = await t.agent('POST', '/bookings', {
      body: serviceBooking(reminded.id, utc(dayFromNow(3), '10:00'), {
        customer: { name: 'Eve', phone: '+4915100000009' },
      }),
    });
    await t.agent('POST', `/bookings/${soon.body.id}/confirm`);
    // The customer's "I will come" (a reminder's quick reply on WhatsApp, tested whole elsewhere).
    const attending = await confirmAttendance(operationContext(t.tenantId, SYSTEM_ACTOR), {
      id: soon.body.id,
    });
    expect(attending.changed).toBe(true);
    expected.set('booking.attendance_confirmed', (await t.agent('GET', `/bookings/${soon.body.id}`)).body);
    const reminderTimer = await forTenant(t.tenantId).timer.findFirstOrThrow({
      where: { subjectId: soon.body.id },
    });
    expect(await sendBookingReminder({ ...reminderTimer, kind: 'booking.reminder' })).toBe('sent');
    expected.set('booking.reminder.sent', (await t.agent('GET', `/bookings/${soon.body.id}`)).body);
    const from = '4915100000001';
    expect(
      (
        await inbound(
          whatsappPayload(number, {
            contacts: [{ wa_id: from, profile: { name: 'Eve' } }],
            messages: [textMessage('wamid.E2E1', from, 'hello')],
          }),
        )
      ).status,
    ).toBe(200);
    const [conversation] = (await t.agent('GET', '/conversations')).body.data;
    const [received] = (await t.agent('GET', `/conversations/${conversation.id}/messages`)).body.data;
    expected.set('conversation.message.received', received);
    const sent = await t.agent('POST', `/conversations/${conversation.id}/messages`, {
      body: { text: 'hi Eve' },
    });
    expected.set('conversation.message.sent', sent.body);
    await inbound(whatsappPayload(number, { statuses: [receipt(sent.body.external_id, 'delivered')] }));
    const [afterDelivery] = (await t.agent('GET', `/conversations/${conversation.id}/messages?limit=1`)).body
      .data;
    expect(afterDelivery.status).toBe('delivered');
    expected.set('conversation.message.delivered', afterDelivery);
    await inbound(whatsappPayload(number, { statuses: [receipt(sent.body.external_id, 'read')] }));
    const [afterRead] = (await t.agent('GET', `/conversations/${conversation.id}/messages?limit=1`)).body
      .data;
    expect(afterRead.status).toBe('read');
    expected.set('conversation.message.read', afterRead);
    // The timers (a periodic job): the window nears its end, then a hand-off waits too long.
    await forTenant(t.tenantId).conversation.update({
      where: { id: conversation.id },
      data: { windowExpiresAt: new Date(Date.now() + 10 * 60_000) },
    });
    await recordConversationTimers();
    expected.set(
      'conversation.window.expiring',
      (await t.agent('GET', `/conversations/${conversation.id}`)).body,
    );
    expected.set(
      'conversation.handoff.requested',
      (
        await t.agent('POST', `/conversations/${conversation.id}/handoff`, {
          body: { reason: 'wants a person' },
        })
      ).body,
    );
    await recordConversationTimers(new Date(Date.now() + 60 * 60_000));
    expected.set(
      'conversation.handoff.overdue',
      (await t.agent('GET', `/conversations/${conversation.id}`)).body,
    );
    expected.set(
      'conversation.assigned',
      (
        await t.agent('POST', `/conversations/${conversation.id}/assign`, {
          body: { user_id: t.agentUserId },
        })
      ).body,
    );
    expected.set(
      'conversation.resolved',
      (await t.agent('POST', `/conversations/${conversation.id}/resolve`)).body,
    );
    // A conversation created through the API, and a reply that fails (no sender for web)
    const web = await t.agent('POST', '/conversations', {
      body: { channel: 'web', contact: { name: 'Visitor' } },
    });
    expected.set('conversation.created', web.body);
    const failed = await t.agent('POST', `/conversations/${web.body.id}/messages`, {
      body: { text: 'hello?' },
    });
    expect(failed.body.status).toBe('failed');
    expected.set('conversation.message.failed', failed.body);

    // Every catalog type but the service's own webhook.* ones is covered (the test event, and the
    // notices of test/webhooks/auto-disable-and-notices.integration.test.ts, which checks their delivery and objects).
    expect([...expected.keys()].sort()).toEqual(
      EVENT_TYPE_NAMES.filter((n) => !n.startsWith('webhook.'))
        .slice()
        .sort(),
    );

    const recorded = await eventsOf(t.tenantId);
    const hooks = await receiver.waitFor(recorded.length, 20_000);
    const wh = new Webhook(secret);
    const byType = new Map<string, object[]>();
    const seenIds = new Set<string>();
    for (const hook of hooks) {
      const envelope = wh.verify(hook.body, {
        'webhook-id': String(hook.headers['webhook-id']),
        'webhook-timestamp': String(hook.headers['webhook-timestamp']),
        'webhook-signature': String(hook.headers['webhook-signature']),
      }) as { id: string; type: string; tenant_id: string; data: { object: object; previous?: object } };
      expect(envelope.id).toBe(hook.headers['webhook-id']);
      expect(hook.headers['x-service-event-type']).toBe(envelope.type);
      expect(envelope.tenant_id).toBe(t.tenantId);
      seenIds.add(envelope.id);
      byType.set(envelope.type, [...(byType.get(envelope.type) ?? []), envelope.data.object]);
      if (envelope.type === 'booking.rescheduled') {
        expect(envelope.data.previous).toEqual({
          start_at: '2026-12-01T09:00:00.000Z',
          end_at: '2026-12-01T10:00:00.000Z',
          resource_id: null,
        });
      }
    }
    expect(seenIds).toEqual(new Set(recorded.map((e) => e.id)));
    for (const [type, object] of expected) {
      expect(byType.get(type), type).toContainEqual(object);
    }
  });
});
