// Booking inside WhatsApp (contract §19) where it can go wrong: races (two rows tapped at once; a tap
// and an API booking of the same time), an offer that expired, an offer that moves an existing
// booking, Confirm after the hold ran out, reminders that ask (quick replies), the assistant's
// offer_slots under a session token, and an interactive message over Meta's limits never sent.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { attemptSend, queueOutboundMessage } from '@/server/domain/conversations/send-message';
import { startTimerWorker, type TimerWorker } from '@/server/runtime/timers/worker';
import { mintSession } from '../support/assistant-fixtures';
import {
  dayFromNow,
  eventually,
  everyDay,
  givenResource,
  givenService,
  utc,
} from '../support/booking-fixtures';
import { givenChannel } from '../support/builders';
import { eventsOf } from '../support/domain-fixtures';
import { apiSuite, fakeGraphSuite } from '../support/harness';
import { closeAssistants, connectAssistant } from '../support/mcp-client';
import {
  buttonReply,
  buttonsOf,
  interactiveOf,
  listReply,
  quickReply,
  textOf,
  unique,
  whatsappBooking,
} from '../support/whatsapp-booking';

const APP_SECRET = 'test-whatsapp-app-secret-offer-edges';
const graph = fakeGraphSuite({ WHATSAPP_APP_SECRET: APP_SECRET, OFFER_HOLD: '10m', OFFER_TTL: '24h' });
const suite = apiSuite({ agent: true });
const { api, tenant } = suite;
let number: string;
let channelId: string;
let worker: TimerWorker;
const { inbound, contact, sendsTo, nextSends, freeService, bookingsOf } = whatsappBooking({
  api,
  tenant,
  graph,
  number: () => number,
  appSecret: APP_SECRET,
});
const db = () => forTenant(tenant.tenantId);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const offer = (conversationId: string, body: object) =>
  tenant.agent('POST', `/conversations/${conversationId}/offers`, { body });

beforeAll(async () => {
  number = String(400_000_000 + Math.floor(Math.random() * 1e8));
  channelId = (await givenChannel(tenant.admin, number, 'token-offer-edges')).id;
  worker = await startTimerWorker();
});
afterAll(async () => {
  await closeAssistants();
  await worker?.stop();
});

/** Runs with a setting changed (as an operator would set it), then puts it back. */
const changed: string[] = [];
function setting(name: string, value: string) {
  changed.push(name);
  process.env[name] = value;
  resetSettingsCache();
}
afterEach(() => {
  for (const name of changed.splice(0)) process.env[name] = name === 'OFFER_HOLD' ? '10m' : '24h';
  resetSettingsCache();
});

const active = <T extends { status: string }>(rows: T[]) =>
  rows.filter((b) => b.status === 'pending' || b.status === 'confirmed');

describe('races', () => {
  it('two rows of one offer tapped at once make one booking, at one of the two times', async () => {
    const service = await freeService();
    const { phone, conversationId } = await contact();
    const offered = await offer(conversationId, { service_id: service.id, date: dayFromNow(8), days: 1 });
    const [first, second] = offered.body.options;
    const before = sendsTo(phone).length;
    // In one webhook, and in two webhooks at once.
    await Promise.all([
      inbound([
        listReply(unique('wamid.A'), phone, first.id),
        listReply(unique('wamid.B'), phone, second.id),
      ]),
      inbound([listReply(unique('wamid.C'), phone, second.id)]),
    ]);
    await nextSends(phone, before, 3);
    const bookings = await bookingsOf(conversationId);
    expect(bookings).toHaveLength(1);
    expect([first.start_at, second.start_at]).toContain(bookings[0].startAt.toISOString());
    expect(bookings[0].status).toBe('pending');
  });

  it('a tap and an API booking of the same time at once: one booking holds it, never two', async () => {
    const service = await freeService();
    for (let round = 0; round < 4; round++) {
      const { phone, conversationId } = await contact();
      const offered = await offer(conversationId, { service_id: service.id, date: dayFromNow(9), days: 1 });
      const option = offered.body.options[round];
      const before = sendsTo(phone).length;
      const [, api] = await Promise.all([
        inbound([listReply(unique('wamid.R'), phone, option.id)]),
        tenant.agent('POST', '/bookings', {
          body: { service_id: service.id, start_at: option.start_at, customer: { name: 'Walk-in' } },
        }),
      ]);
      const [answer] = await nextSends(phone, before);
      const mine = active(await bookingsOf(conversationId));
      if (api.status === 201) {
        // The API won: the customer is told and offered again, nothing booked for them.
        expect(mine).toHaveLength(0);
        expect(textOf(answer)).toContain('just taken');
      } else {
        expect(api.body.code).toBe('slot_unavailable');
        expect(mine).toHaveLength(1);
        expect(mine[0].startAt.toISOString()).toBe(option.start_at);
      }
      const atThatTime = await db().booking.count({
        where: {
          serviceId: service.id,
          startAt: new Date(option.start_at),
          status: { in: ['pending', 'confirmed'] },
        },
      });
      expect(atThatTime).toBe(1);
    }
  });
});

describe('offers that expired or move a booking', () => {
  it('a tap on an expired offer books nothing: the customer is told and offered the times free now', async () => {
    setting('OFFER_TTL', '1s');
    const service = await freeService();
    const { phone, conversationId } = await contact();
    const offered = await offer(conversationId, { service_id: service.id, date: dayFromNow(10), days: 1 });
    expect(Date.parse(offered.body.expires_at) - Date.now()).toBeLessThanOrEqual(1_000);
    await sleep(1_200);
    const before = sendsTo(phone).length;
    await inbound([listReply(unique('wamid.LATE'), phone, offered.body.options[0].id)]);
    const [told, list] = await nextSends(phone, before, 2);
    expect(textOf(told)).toContain('expired');
    expect(interactiveOf(list)?.type).toBe('list');
    expect(await bookingsOf(conversationId)).toHaveLength(0);
    expect(await db().offer.count({ where: { conversationId } })).toBe(2);
  });

  it('an offer with booking_id moves that booking on a tap, and says the new time; nothing new is booked', async () => {
    const service = await freeService();
    const { phone, conversationId } = await contact();
    const booked = await tenant.agent('POST', '/bookings', {
      body: {
        service_id: service.id,
        start_at: utc(dayFromNow(11), '09:00'),
        customer: { name: 'Marta', phone: `+${phone}` },
      },
    });
    await tenant.agent('POST', `/bookings/${booked.body.id}/confirm`);
    const offered = await offer(conversationId, {
      service_id: service.id,
      booking_id: booked.body.id,
      date: dayFromNow(11),
      days: 1,
    });
    expect(offered.status).toBe(201);
    expect(offered.body.booking_id).toBe(booked.body.id);
    const target = offered.body.options.at(-1);
    const before = sendsTo(phone).length;
    await inbound([listReply(unique('wamid.MOVE'), phone, target.id)]);
    const [moved] = await nextSends(phone, before);
    expect(textOf(moved)).toContain('is moved to');
    const after = await tenant.agent('GET', `/bookings/${booked.body.id}`);
    expect(after.body).toMatchObject({ status: 'confirmed', start_at: target.start_at });
    expect(
      await eventsOf(tenant.tenantId, { type: 'booking.rescheduled', objectId: booked.body.id }),
    ).toHaveLength(1);
    expect(await bookingsOf(conversationId)).toHaveLength(0); // no booking of the conversation was made
  });
});

describe('Confirm after the hold ran out', () => {
  async function heldThenExpired() {
    setting('OFFER_HOLD', '1s');
    const service = await freeService();
    const { phone, conversationId } = await contact();
    const offered = await offer(conversationId, { service_id: service.id, date: dayFromNow(12), days: 1 });
    const option = offered.body.options[2];
    const before = sendsTo(phone).length;
    await inbound([listReply(unique('wamid.HOLD'), phone, option.id)]);
    const [held] = await nextSends(phone, before);
    const [booking] = await bookingsOf(conversationId);
    await eventually(async () => {
      expect((await db().booking.findUniqueOrThrow({ where: { id: booking.id } })).status).toBe('expired');
    }, 5_000);
    const confirm = buttonsOf(held)[0];
    expect(confirm.title).toBe('Confirm');
    return { service, phone, option, booking, confirm };
  }

  it('confirms it while its time is still free', async () => {
    const { phone, booking, confirm } = await heldThenExpired();
    const before = sendsTo(phone).length;
    await inbound([buttonReply(unique('wamid.OK'), phone, confirm.id, confirm.title)]);
    const [text] = await nextSends(phone, before);
    expect(textOf(text)).toContain('Booked: Check-up');
    expect((await db().booking.findUniqueOrThrow({ where: { id: booking.id } })).status).toBe('confirmed');
  });

  it('offers the free times again when someone took it meanwhile', async () => {
    const { service, phone, option, booking, confirm } = await heldThenExpired();
    const taken = await tenant.agent('POST', '/bookings', {
      body: { service_id: service.id, start_at: option.start_at, customer: { name: 'Faster' } },
    });
    expect(taken.status).toBe(201);
    const before = sendsTo(phone).length;
    await inbound([buttonReply(unique('wamid.OK'), phone, confirm.id, confirm.title)]);
    const [sorry, list] = await nextSends(phone, before, 2);
    expect(textOf(sorry)).toContain('just taken');
    expect(interactiveOf(list)?.type).toBe('list');
    expect((await db().booking.findUniqueOrThrow({ where: { id: booking.id } })).status).toBe('expired');
  });
});

describe('reminders that ask', () => {
  /** Three confirmed bookings of `phone` whose 1-minute reminders (ask: true) are due in ~2 s. */
  async function remindedBookings(phone: string) {
    const resources = await Promise.all(
      [1, 2, 3].map((i) =>
        givenResource(tenant.admin, {
          name: `Chair ${i}`,
          weekly_hours: everyDay([{ start: '00:00', end: '24:00' }]),
        }),
      ),
    );
    const service = await givenService(
      tenant.admin,
      resources.map((r) => r.id),
      {
        name: 'Haircut',
        reminders: [
          {
            before_minutes: 1,
            channel_id: channelId,
            template: { name: 'appointment_reminder', language: 'es' },
            ask: true,
          },
        ],
      },
    );
    expect((service.reminders as Array<{ ask: boolean }>)[0].ask).toBe(true);
    const start = new Date(Math.ceil((Date.now() + 62_000) / 1000) * 1000).toISOString();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await tenant.agent('POST', '/bookings', {
        body: { service_id: service.id, start_at: start, customer: { name: 'Marta', phone: `+${phone}` } },
      });
      expect(res.status, res.text).toBe(201);
      await tenant.agent('POST', `/bookings/${res.body.id}/confirm`);
      ids.push(res.body.id);
    }
    return ids;
  }

  it('sends the template with a quick-reply payload per button; the taps confirm attendance, offer new times, cancel', async () => {
    const { phone, conversationId } = await contact('Rosa');
    const before = sendsTo(phone).length;
    const [attend, move, cancel] = await remindedBookings(phone);
    const reminders = await nextSends(phone, before, 3, 10_000);
    const payloads = new Map<string, string[]>();
    for (const sent of reminders) {
      const template = (sent.body as { template: { components: Array<Record<string, unknown>> } }).template;
      const quick = template.components.filter((c) => c.type === 'button');
      expect(quick.map((c) => [c.sub_type, c.index])).toEqual([
        ['quick_reply', '0'],
        ['quick_reply', '1'],
        ['quick_reply', '2'],
      ]);
      const ids = quick.map((c) => (c.parameters as Array<{ type: string; payload: string }>)[0].payload);
      const choice = await db().choice.findUniqueOrThrow({ where: { id: ids[0] } });
      payloads.set(choice.bookingId as string, ids);
    }
    expect([...payloads.keys()].sort()).toEqual([attend, move, cancel].sort());

    // I will come.
    let mark = sendsTo(phone).length;
    await inbound([quickReply(unique('wamid.Q'), phone, payloads.get(attend)?.[0] as string, 'I will come')]);
    expect(textOf((await nextSends(phone, mark))[0])).toContain('we will see you');
    const attending = await tenant.agent('GET', `/bookings/${attend}`);
    expect(attending.body.attendance_confirmed_at).toEqual(expect.any(String));
    expect(
      await eventsOf(tenant.tenantId, { type: 'booking.attendance_confirmed', objectId: attend }),
    ).toHaveLength(1);

    // Change time: an offer that moves this booking, from its date.
    mark = sendsTo(phone).length;
    await inbound([quickReply(unique('wamid.Q'), phone, payloads.get(move)?.[1] as string, 'Change time')]);
    const [list] = await nextSends(phone, mark);
    expect(interactiveOf(list)?.type).toBe('list');
    expect(await db().offer.findFirst({ where: { conversationId, bookingId: move } })).not.toBeNull();

    // Cancel: cancelled as the customer's own cancellation; a tap on it again changes nothing.
    mark = sendsTo(phone).length;
    await inbound([quickReply(unique('wamid.Q'), phone, payloads.get(cancel)?.[2] as string, 'Cancel')]);
    expect(textOf((await nextSends(phone, mark))[0])).toContain('is cancelled');
    expect((await tenant.agent('GET', `/bookings/${cancel}`)).body).toMatchObject({
      status: 'cancelled',
      cancellation_reason: 'customer_cancelled',
    });
    mark = sendsTo(phone).length;
    await inbound([quickReply(unique('wamid.Q'), phone, payloads.get(cancel)?.[0] as string, 'I will come')]);
    expect(textOf((await nextSends(phone, mark))[0])).toContain('nothing to change');
    const stillCancelled = await tenant.agent('GET', `/bookings/${cancel}`);
    expect(stillCancelled.body).toMatchObject({ status: 'cancelled', attendance_confirmed_at: null });
  });
});

describe('the assistant offers times under a session token', () => {
  it('offer_slots sends the list to its own conversation; another customer’s booking and a hand-off are refused, nothing sent', async () => {
    const service = await freeService();
    const me = await contact('Ada');
    const someoneElse = await contact('Bob');
    const session = await mintSession(tenant.admin, me.conversationId);
    const assistant = await connectAssistant(suite.url, { tenantId: tenant.tenantId, token: session.token });
    const { tools } = await assistant.client.listTools();
    const offerSlots = tools.find((t) => t.name === 'offer_slots');
    expect(Object.keys(offerSlots?.inputSchema.properties ?? {})).not.toContain('id');

    let before = sendsTo(me.phone).length;
    const offered = await assistant.ok('offer_slots', {
      service_id: service.id,
      date: dayFromNow(13),
      days: 1,
    });
    expect(offered).toMatchObject({ conversation_id: me.conversationId, service_id: service.id });
    const [list] = await nextSends(me.phone, before);
    expect(interactiveOf(list)?.type).toBe('list');

    const theirs = await tenant.agent('POST', '/bookings', {
      body: {
        service_id: service.id,
        start_at: utc(dayFromNow(14), '09:00'),
        customer: { name: 'Bob', phone: `+${someoneElse.phone}` },
      },
    });
    before = sendsTo(me.phone).length;
    const othersBefore = sendsTo(someoneElse.phone).length;
    const refused = await assistant.refused('offer_slots', {
      service_id: service.id,
      booking_id: theirs.body.id,
    });
    expect(refused.code).toBe('validation_failed');

    await tenant.agent('POST', `/conversations/${me.conversationId}/handoff`, {
      body: { reason: 'asked for a person' },
    });
    const handled = await assistant.refused('offer_slots', { service_id: service.id });
    expect(handled.code).toBe('handled_by_human');
    await sleep(300);
    expect(sendsTo(me.phone).length).toBe(before);
    expect(sendsTo(someoneElse.phone).length).toBe(othersBefore);
    expect(await db().offer.count({ where: { conversationId: me.conversationId } })).toBe(1);
  });
});

describe('Meta’s limits, checked before sending', () => {
  it('an interactive message over a limit is stored failed with the reason and never reaches WhatsApp', async () => {
    const { phone, conversationId } = await contact();
    const ctx = operationContext(tenant.tenantId, SYSTEM_ACTOR);
    const rows = Array.from({ length: 11 }, (_, i) => ({ id: `r${i}`, title: `Row ${i}` }));
    const before = sendsTo(phone).length;
    const message = await queueOutboundMessage(ctx.db, {
      tenantId: tenant.tenantId,
      conversationId,
      content: {
        type: 'interactive',
        interactive: {
          type: 'list',
          body: { text: 'Pick' },
          action: { button: 'Times', sections: [{ rows }] },
        },
      },
    });
    await attemptSend(ctx, message);
    const stored = await db().message.findUniqueOrThrow({ where: { id: message.id } });
    expect(stored.status).toBe('failed');
    expect(stored.failureReason).toContain('more than 10 rows');
    expect(sendsTo(phone).length).toBe(before);
    expect(
      await eventsOf(tenant.tenantId, { type: 'conversation.message.failed', objectId: message.id }),
    ).toHaveLength(1);
  });
});
