// Booking inside WhatsApp (contract §19) against a stand-in Graph API, with Meta's payload shapes:
// an offer of times as an interactive list, the customer's taps (`interactive.list_reply`,
// `interactive.button_reply`) held, moved, confirmed and let go by the service itself, a paid
// service's Checkout link, and what is refused before anything is sent. The races, expiries, moves,
// reminders that ask and the assistant's offers: ./booking-inside-whatsapp-edges.integration.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forTenant } from '@/server/db/tenant-scope';
import { startTimerWorker, type TimerWorker } from '@/server/runtime/timers/worker';
import { dayFromNow, utc } from '../support/booking-fixtures';
import { givenChannel } from '../support/builders';
import { eventsOf, expectProblemCode } from '../support/domain-fixtures';
import { apiSuite, fakeGraphSuite, fakeStripeSuite } from '../support/harness';
import { connectStripe } from '../support/stripe-fixtures';
import {
  buttonReply,
  interactiveOf,
  listReply,
  TAP_ANSWERED_WITHIN_MS,
  unique,
  whatsappBooking,
} from '../support/whatsapp-booking';

const APP_SECRET = 'test-whatsapp-app-secret-offers';
const TOKEN = 'token-offers-A';

const graph = fakeGraphSuite({ WHATSAPP_APP_SECRET: APP_SECRET, OFFER_HOLD: '10m', OFFER_TTL: '24h' });
const stripe = fakeStripeSuite();
const { api, tenant } = apiSuite({ agent: true });
let number: string;
let worker: TimerWorker;
const { inbound, contact, sendsTo, nextSends, freeService, bookingsOf } = whatsappBooking({
  api,
  tenant,
  graph,
  number: () => number,
  appSecret: APP_SECRET,
});

beforeAll(async () => {
  number = String(300_000_000 + Math.floor(Math.random() * 1e8));
  await givenChannel(tenant.admin, number, TOKEN);
  worker = await startTimerWorker();
});
afterAll(() => worker?.stop());

describe('offers: POST /conversations/{id}/offers', () => {
  it('sends one list message of free times within Meta’s limits, and answers the offer', async () => {
    const service = await freeService();
    const { phone, conversationId } = await contact();
    const before = sendsTo(phone).length;
    const date = dayFromNow(2);
    const res = await tenant.agent('POST', `/conversations/${conversationId}/offers`, {
      body: { service_id: service.id, date, days: 3, time_zone: 'Europe/Madrid' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      conversation_id: conversationId,
      service_id: service.id,
      booking_id: null,
      time_zone: 'Europe/Madrid',
    });
    expect(res.body.id).toMatch(/^ofr_/);
    const options = res.body.options as Array<{ id: string; start_at: string; end_at: string }>;
    expect(options.length).toBe(10);
    expect(new Set(options.map((o) => o.id)).size).toBe(10);
    for (const o of options) {
      expect(o.id.length).toBeLessThanOrEqual(200);
      expect(o.id).toMatch(/^chc_[A-Za-z0-9_-]{22}$/); // 128 random bits
    }
    const [sent] = sendsTo(phone).slice(before);
    expect(sent.body).toMatchObject({ type: 'interactive', to: phone });
    const list = interactiveOf(sent) as unknown as {
      type: string;
      body: { text: string };
      action: {
        button: string;
        sections: Array<{ title: string; rows: Array<{ id: string; title: string; description?: string }> }>;
      };
    };
    expect(list.type).toBe('list');
    expect(list.action.button.length).toBeLessThanOrEqual(20);
    expect(list.body.text.length).toBeLessThanOrEqual(1024);
    expect(list.action.sections).toHaveLength(3); // one per local day, each with some of its times
    const rows = list.action.sections.flatMap((s) => s.rows);
    expect(rows.map((r) => r.id)).toEqual(options.map((o) => o.id));
    for (const section of list.action.sections) expect(section.title.length).toBeLessThanOrEqual(24);
    for (const row of rows) {
      expect(row.title.length).toBeLessThanOrEqual(24);
      expect((row.description ?? '').length).toBeLessThanOrEqual(72);
    }
    // Spread over each morning, not its first minutes; the rows read in Madrid's time.
    expect(rows[0].title).toBe('09:00 – 09:30');
    expect(list.action.sections[0].rows.at(-1)?.title).not.toBe('09:30 – 10:00');
    // Stored as an outbound interactive message with readable text, and shown as such.
    const message = await tenant.agent('GET', `/conversations/${conversationId}/messages?limit=1`);
    expect(message.body.data[0]).toMatchObject({
      id: res.body.message_id,
      type: 'interactive',
      status: 'sent',
    });
    expect(message.body.data[0].interactive).toMatchObject({ kind: 'list', button: list.action.button });
    expect(message.body.data[0].text).toContain('09:00');
  });

  it('refuses a closed window (422), no free time (409) and someone else’s booking (422), sending nothing', async () => {
    const service = await freeService();
    const { phone, conversationId } = await contact();
    const before = sendsTo(phone).length;
    const offer = (body: object) => tenant.agent('POST', `/conversations/${conversationId}/offers`, { body });
    // Nothing free on a day the resource does not work… at 09:00–13:00 every day, a past date has none.
    const past = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    expectProblemCode(await offer({ service_id: service.id, date: past, days: 1 }), 409, 'no_free_slots');
    const other = await tenant.agent('POST', '/bookings', {
      body: {
        service_id: service.id,
        start_at: utc(dayFromNow(5), '09:00'),
        customer: { name: 'Someone else', phone: '+34999000111' },
      },
    });
    expectProblemCode(
      await offer({ service_id: service.id, booking_id: other.body.id }),
      422,
      'validation_failed',
    );
    await forTenant(tenant.tenantId).conversation.update({
      where: { id: conversationId },
      data: { windowExpiresAt: new Date(Date.now() - 1000) },
    });
    expectProblemCode(await offer({ service_id: service.id }), 422, 'outside_customer_service_window');
    expect(sendsTo(phone).length).toBe(before);
    expect(await forTenant(tenant.tenantId).offer.count({ where: { conversationId } })).toBe(0);
  });
});

describe('taps', () => {
  it('a tap holds the time, answered within 5 s with Confirm and Other times; Confirm confirms it', async () => {
    const service = await freeService();
    const { phone, conversationId } = await contact('Marta Ruiz');
    const offered = await tenant.agent('POST', `/conversations/${conversationId}/offers`, {
      body: { service_id: service.id, date: dayFromNow(3), days: 1 },
    });
    const option = offered.body.options[1];
    const before = sendsTo(phone).length;
    const tappedAt = Date.now();
    expect((await inbound([listReply(unique('wamid.TAP'), phone, option.id)])).status).toBe(200);
    const [answer] = await nextSends(phone, before);
    expect(Date.now() - tappedAt).toBeLessThan(TAP_ANSWERED_WITHIN_MS);
    const buttons = interactiveOf(answer) as unknown as {
      type: string;
      action: { buttons: Array<{ reply: { id: string; title: string } }> };
    };
    expect(buttons.type).toBe('button');
    expect(buttons.action.buttons.map((b) => b.reply.title)).toEqual(['Confirm', 'Other times']);
    const [booking] = await bookingsOf(conversationId);
    expect(booking).toMatchObject({
      status: 'pending',
      serviceId: service.id,
      customerName: 'Marta Ruiz',
      customerPhone: `+${phone}`,
      conversationId,
    });
    expect(booking.startAt.toISOString()).toBe(option.start_at);
    const hold = (booking.holdExpiresAt as Date).getTime() - booking.createdAt.getTime();
    expect(hold).toBeGreaterThan(9 * 60_000);
    expect(hold).toBeLessThanOrEqual(10 * 60_000 + 1_000);

    const confirm = buttons.action.buttons[0].reply;
    const beforeConfirm = sendsTo(phone).length;
    await inbound([buttonReply(unique('wamid.BTN'), phone, confirm.id, confirm.title)]);
    const [text] = await nextSends(phone, beforeConfirm);
    expect((text.body as { text: { body: string } }).text.body).toContain('Booked: Check-up');
    const [confirmed] = await bookingsOf(conversationId);
    expect(confirmed.status).toBe('confirmed');
    expect(
      await eventsOf(tenant.tenantId, { type: 'booking.confirmed', objectId: confirmed.id }),
    ).toHaveLength(1);
  });

  it('a later tap on another row moves the held booking; the same row or message again changes nothing', async () => {
    const service = await freeService();
    const { phone, conversationId } = await contact();
    const offered = await tenant.agent('POST', `/conversations/${conversationId}/offers`, {
      body: { service_id: service.id, date: dayFromNow(4), days: 1 },
    });
    const [first, second] = offered.body.options;
    const tap = listReply(unique('wamid.TAP'), phone, first.id);
    let before = sendsTo(phone).length;
    await inbound([tap]);
    await nextSends(phone, before);
    // The same WhatsApp message delivered again: stored once, answered once.
    before = sendsTo(phone).length;
    await inbound([tap]);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(sendsTo(phone).length).toBe(before);
    // Another row of the same offer: the same booking moves there.
    await inbound([listReply(unique('wamid.TAP'), phone, second.id)]);
    await nextSends(phone, before);
    const after = await bookingsOf(conversationId);
    expect(after).toHaveLength(1);
    expect(after[0].startAt.toISOString()).toBe(second.start_at);
    expect(
      await eventsOf(tenant.tenantId, { type: 'booking.rescheduled', objectId: after[0].id }),
    ).toHaveLength(1);
    // The same row again: nothing moves, no second booking.
    before = sendsTo(phone).length;
    await inbound([listReply(unique('wamid.TAP'), phone, second.id)]);
    await nextSends(phone, before);
    const still = await bookingsOf(conversationId);
    expect(still).toHaveLength(1);
    expect(still[0].startAt.toISOString()).toBe(second.start_at);
    expect(
      await eventsOf(tenant.tenantId, { type: 'booking.rescheduled', objectId: after[0].id }),
    ).toHaveLength(1);
  });

  it('Other times lets the held time go and offers the days again', async () => {
    const service = await freeService();
    const { phone, conversationId } = await contact();
    const offered = await tenant.agent('POST', `/conversations/${conversationId}/offers`, {
      body: { service_id: service.id, date: dayFromNow(5), days: 2 },
    });
    let before = sendsTo(phone).length;
    await inbound([listReply(unique('wamid.TAP'), phone, offered.body.options[0].id)]);
    const [answer] = await nextSends(phone, before);
    const other = (
      interactiveOf(answer) as unknown as {
        action: { buttons: Array<{ reply: { id: string; title: string } }> };
      }
    ).action.buttons[1].reply;
    before = sendsTo(phone).length;
    await inbound([buttonReply(unique('wamid.BTN'), phone, other.id, other.title)]);
    const [again] = await nextSends(phone, before);
    expect(interactiveOf(again)?.type).toBe('list');
    const [booking] = await bookingsOf(conversationId);
    expect(booking).toMatchObject({ status: 'cancelled', cancellationReason: 'customer_cancelled' });
    expect(await forTenant(tenant.tenantId).offer.count({ where: { conversationId } })).toBe(2);
  });

  it('a time taken meanwhile is not booked: the customer is told and offered the free times again', async () => {
    const service = await freeService();
    const { phone, conversationId } = await contact();
    const offered = await tenant.agent('POST', `/conversations/${conversationId}/offers`, {
      body: { service_id: service.id, date: dayFromNow(6), days: 1 },
    });
    const option = offered.body.options[0];
    const taken = await tenant.agent('POST', '/bookings', {
      body: { service_id: service.id, start_at: option.start_at, customer: { name: 'Faster' } },
    });
    expect(taken.status).toBe(201);
    const before = sendsTo(phone).length;
    await inbound([listReply(unique('wamid.TAP'), phone, option.id)]);
    const [sorry, list] = await nextSends(phone, before, 2);
    expect((sorry.body as { text: { body: string } }).text.body).toContain('just taken');
    expect(interactiveOf(list)?.type).toBe('list');
    expect(await bookingsOf(conversationId)).toHaveLength(0);
  });

  it('a paid service answers the tap with its Checkout link, the booking held for its payment', async () => {
    const service = await freeService({ price: { amount: 4500, currency: 'EUR' }, payment: 'full' });
    const { phone, conversationId } = await contact();
    const offered = await tenant.agent('POST', `/conversations/${conversationId}/offers`, {
      body: { service_id: service.id, date: dayFromNow(7), days: 1 },
    });
    // Without Stripe connected no payment can be taken: the customer is told, nothing is held.
    let before = sendsTo(phone).length;
    await inbound([listReply(unique('wamid.TAP'), phone, offered.body.options[0].id)]);
    const [refusal] = await nextSends(phone, before);
    expect((refusal.body as { text: { body: string } }).text.body).toContain('payments cannot be taken');
    expect(await bookingsOf(conversationId)).toHaveLength(0);

    await connectStripe(tenant, stripe);
    before = sendsTo(phone).length;
    await inbound([listReply(unique('wamid.TAP'), phone, offered.body.options[0].id)]);
    const [answer] = await nextSends(phone, before);
    const [row] = await bookingsOf(conversationId);
    const booking = await tenant.agent('GET', `/bookings/${row.id}`);
    expect(booking.body).toMatchObject({ status: 'pending', conversation_id: conversationId });
    const cta = interactiveOf(answer) as unknown as {
      type: string;
      action: { parameters: { url: string; display_text: string } };
    };
    expect(cta.type).toBe('cta_url');
    expect(cta.action.parameters.display_text).toBe('Pay now');
    expect(cta.action.parameters.url).toBe(booking.body.payment.checkout_url);
  });
});
