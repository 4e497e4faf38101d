// Services through the REST API: every field with its default and its range, resources and reminder
// channels of the tenant only, admins write and agents read.
import { describe, expect, it } from 'vitest';
import { dayFromNow, givenResource, givenService } from '../support/booking-fixtures';
import { givenChannel } from '../support/builders';
import { expectProblemCode } from '../support/domain-fixtures';
import { apiSuite, fakeGraphSuite } from '../support/harness';

fakeGraphSuite();
const { tenant: a, other: b } = apiSuite({ other: true, agent: true });

const _later = dayFromNow(10);

describe('services: every field and its range', () => {
  it('creates with defaults: buffers 0, notice 0, window 90, grid = duration, payment none, no reminders', async () => {
    const r = await givenResource(a.admin);
    const res = await a.admin('POST', '/services', {
      body: { name: 'Cut', duration_minutes: 45, resource_ids: [r.id] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Cut',
      duration_minutes: 45,
      resource_ids: [r.id],
      buffer_before_minutes: 0,
      buffer_after_minutes: 0,
      min_notice_minutes: 0,
      booking_window_days: 90,
      slot_interval_minutes: 45,
      price: null,
      payment: 'none',
      deposit_amount: null,
      reminders: [],
      is_active: true,
    });
    expect(res.body.id).toMatch(/^svc_/);
    expect((await a.agent('GET', `/services/${res.body.id}`)).body).toEqual(res.body);
    const patched = await a.admin('PATCH', `/services/${res.body.id}`, {
      body: {
        price: { amount: 3000, currency: 'EUR' },
        payment: 'deposit',
        deposit_amount: 1000,
        slot_interval_minutes: 15,
      },
    });
    expect(patched.body).toMatchObject({
      price: { amount: 3000, currency: 'EUR' },
      payment: 'deposit',
      deposit_amount: 1000,
      slot_interval_minutes: 15,
    });
    expect((await a.admin('DELETE', `/services/${res.body.id}`)).status).toBe(204);
  });

  it.each([
    ['a duration under 5', { duration_minutes: 4 }, 'duration_minutes'],
    ['a duration over 1440', { duration_minutes: 1441 }, 'duration_minutes'],
    ['no resources', { resource_ids: [] }, 'resource_ids'],
    ['an unknown resource', { resource_ids: ['res_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q'] }, 'resource_ids[0]'],
    ['a buffer over 240', { buffer_after_minutes: 241 }, 'buffer_after_minutes'],
    ['a negative buffer', { buffer_before_minutes: -1 }, 'buffer_before_minutes'],
    ['a window of 0 days', { booking_window_days: 0 }, 'booking_window_days'],
    ['a window over 730 days', { booking_window_days: 731 }, 'booking_window_days'],
    ['payment without a price', { payment: 'full' }, 'price'],
    [
      'a deposit without its amount',
      { payment: 'deposit', price: { amount: 1000, currency: 'EUR' } },
      'deposit_amount',
    ],
    [
      'a deposit over the price',
      { payment: 'deposit', price: { amount: 1000, currency: 'EUR' }, deposit_amount: 1001 },
      'deposit_amount',
    ],
    [
      'a deposit amount without payment deposit',
      { price: { amount: 1000, currency: 'EUR' }, deposit_amount: 100 },
      'deposit_amount',
    ],
    ['an unknown currency', { price: { amount: 1000, currency: 'EUD' } }, 'price.currency'],
    ['a payment mode that does not exist', { payment: 'later' }, 'payment'],
  ])('refuses %s with 422', async (_, patch, path) => {
    const r = await givenResource(a.admin);
    const res = await a.admin('POST', '/services', {
      body: { name: 'X', duration_minutes: 30, resource_ids: [r.id], ...patch },
    });
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("refuses another tenant's resource, reminders on a channel that is not its WhatsApp channel, and more than 3", async () => {
    const own = await givenResource(a.admin);
    const foreign = await givenResource(b.admin);
    const res = await a.admin('POST', '/services', {
      body: { name: 'X', duration_minutes: 30, resource_ids: [own.id, foreign.id] },
    });
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors).toEqual([{ path: 'resource_ids[1]', message: 'No such resource' }]);
    const foreignChannel = await givenChannel(b.admin, String(500_000_000 + Math.floor(Math.random() * 1e8)));
    const reminder = (channel_id: string) => ({
      before_minutes: 60,
      channel_id,
      template: { name: 'reminder', language: 'en' },
    });
    const bad = await a.admin('POST', '/services', {
      body: {
        name: 'X',
        duration_minutes: 30,
        resource_ids: [own.id],
        reminders: [reminder(foreignChannel.id)],
      },
    });
    expect(bad.body.errors).toEqual([
      { path: 'reminders[0].channel_id', message: 'No such WhatsApp channel' },
    ]);
    const ownChannel = await givenChannel(a.admin, String(500_000_000 + Math.floor(Math.random() * 1e8)));
    const four = await a.admin('POST', '/services', {
      body: {
        name: 'X',
        duration_minutes: 30,
        resource_ids: [own.id],
        reminders: Array(4).fill(reminder(ownChannel.id)),
      },
    });
    expectProblemCode(four, 422, 'validation_failed');
    const ok = await a.admin('POST', '/services', {
      body: { name: 'X', duration_minutes: 30, resource_ids: [own.id], reminders: [reminder(ownChannel.id)] },
    });
    expect(ok.status).toBe(201);
    // A reminder asks nothing unless it says so (ask, §19).
    expect(ok.body.reminders).toEqual([{ ...reminder(ownChannel.id), ask: false }]);
  });

  it('agents read services but cannot write them (403)', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    expect((await a.agent('GET', `/services/${s.id}`)).status).toBe(200);
    expectProblemCode(await a.agent('PATCH', `/services/${s.id}`, { body: { name: 'Y' } }), 403, 'forbidden');
  });
});
