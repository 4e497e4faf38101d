// The booking page's JSON (/public/…), with no credential: a public service, its free times, a booking
// (free, awaiting confirmation, paid through the Stripe stand-in), the limits (a phone's pending
// bookings, a client address's bookings an hour), Idempotency-Key, CORS; and the manage link: read,
// reschedule, cancel, the notice, expiry, and that it shows nothing of the customer or of anyone else.
import { afterEach, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { pgPool } from '@/server/db/pool';
import { forTenant } from '@/server/db/tenant-scope';
import { manageUrlOfId } from '@/server/domain/bookings/manage-link';
import { dayFromNow, everyDay, givenResource, givenService, utc } from '../support/booking-fixtures';
import { eventsOf, expectProblemCode } from '../support/domain-fixtures';
import { TEST_ENV } from '../support/env';
import { apiSuite, fakeStripeSuite, type SuiteTenant } from '../support/harness';
import { connectStripe } from '../support/stripe-fixtures';

const stripe = fakeStripeSuite();
const suite = apiSuite({ other: true });
const { api, tenant: a, other: b } = suite;

afterEach(() => {
  process.env.PUBLIC_BOOKINGS_PER_HOUR = TEST_ENV.PUBLIC_BOOKINGS_PER_HOUR;
  resetSettingsCache();
});

const day = dayFromNow(6);
let phoneSeq = 600_100_000 + Math.floor(Math.random() * 1e6);
const newPhone = () => `+34${phoneSeq++}`;

/** A public 30-minute service on a resource in Madrid working all day, every day. */
async function publicService(t: SuiteTenant, overrides: Record<string, unknown> = {}) {
  const r = await givenResource(t.admin, {
    time_zone: 'Europe/Madrid',
    weekly_hours: everyDay([{ start: '00:00', end: '24:00' }]),
  });
  const s = await givenService(t.admin, [r.id], {
    name: 'Haircut',
    duration_minutes: 30,
    public: true,
    ...overrides,
  });
  return { serviceId: s.id, resourceId: r.id };
}

function book(serviceId: string, start: string, phone = newPhone(), headers: Record<string, string> = {}) {
  return api('POST', `/public/services/${serviceId}/bookings`, {
    body: { start_at: start, customer: { name: 'Lin', phone, email: 'lin@example.test' } },
    headers,
  });
}

const tokenOf = (manageUrl: string) => manageUrl.split('/b/')[1];

describe('GET /public/services/{id} and its slots', () => {
  it('shows a public active service without credentials, with CORS for any origin', async () => {
    const { serviceId } = await publicService(a, { price: { amount: 2500, currency: 'EUR' } });
    const res = await api('GET', `/public/services/${serviceId}`, {
      headers: { Origin: 'https://shop.example' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      id: serviceId,
      name: 'Haircut',
      duration_minutes: 30,
      price: { amount: 2500, currency: 'EUR' },
      payment: 'none',
      deposit_amount: null,
      time_zone: 'Europe/Madrid',
      requires_confirmation: false,
      cancel_notice_minutes: 0,
      booking_window_days: 730,
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers 404 for a private, a paused, another kind of and an unknown id', async () => {
    const priv = await publicService(a, { public: false });
    const paused = await publicService(a);
    expect(
      (await a.admin('PATCH', `/services/${paused.serviceId}`, { body: { is_active: false } })).status,
    ).toBe(200);
    for (const id of [priv.serviceId, paused.serviceId, 'svc_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q', 'bkg_x', '..']) {
      expectProblemCode(await api('GET', `/public/services/${id}`), 404, 'not_found');
      expectProblemCode(
        await api('GET', `/public/services/${id}/slots?start=${day}&end=${day}`),
        404,
        'not_found',
      );
      expectProblemCode(await book(id, utc(day, '10:00')), 404, 'not_found');
    }
  });

  it('lists the free times in the visitor’s zone, without resources; a preflight allows any origin', async () => {
    const { serviceId } = await publicService(a);
    const res = await api(
      'GET',
      `/public/services/${serviceId}/slots?start=${day}&end=${day}&time_zone=America/New_York`,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.time_zone).toBe('America/New_York');
    const slots = res.body.days[day];
    expect(slots.length).toBeGreaterThan(0);
    for (const slot of slots) expect(Object.keys(slot).sort()).toEqual(['end', 'start']);
    expect(res.text).not.toMatch(/res_[0-9A-Z]{26}/);
    const preflight = await fetch(`${suite.url}/api/v1/public/services/${serviceId}/bookings`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://shop.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type, idempotency-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Idempotency-Key/);
  });
});

describe('POST /public/services/{id}/bookings', () => {
  it('books a free service confirmed at once, source booking_page, with the manage link staff see too', async () => {
    const { serviceId } = await publicService(a);
    // An X-Tenant-ID of another tenant changes nothing: the service names the tenant.
    const res = await book(serviceId, utc(day, '10:00'), newPhone(), { 'X-Tenant-ID': b.tenantId });
    expect(res.status, res.text).toBe(201);
    expect(res.body.booking).toMatchObject({
      status: 'confirmed',
      start_at: utc(day, '10:00'),
      end_at: utc(day, '10:30'),
      hold_expires_at: null,
    });
    expect(res.body.manage_url).toMatch(/\/b\/mng_[A-Za-z0-9_-]{43}$/);
    expect(res.body.checkout_url).toBeUndefined();
    const staff = await a.admin('GET', `/bookings/${res.body.booking.id}`);
    // What a WhatsApp confirmation sends: the same link, from the booking's id alone.
    expect(await manageUrlOfId(forTenant(a.tenantId), res.body.booking.id)).toBe(res.body.manage_url);
    expect(await manageUrlOfId(forTenant(b.tenantId), res.body.booking.id)).toBeNull();
    expect(staff.body).toMatchObject({
      source: 'booking_page',
      status: 'confirmed',
      manage_url: res.body.manage_url,
    });
    // The token is stored only as its hash.
    const row = await pgPool().query('select to_jsonb(b)::text as row from bookings b where id = $1', [
      res.body.booking.id,
    ]);
    expect(row.rows[0].row).not.toContain(tokenOf(res.body.manage_url));
    const [created] = await eventsOf(a.tenantId, { type: 'booking.created', objectId: res.body.booking.id });
    expect(JSON.stringify(created)).not.toContain('mng_');
  });

  it('keeps a free booking pending without a hold when the service requires confirmation', async () => {
    const { serviceId } = await publicService(a, { requires_confirmation: true });
    const res = await book(serviceId, utc(day, '11:00'));
    expect(res.status, res.text).toBe(201);
    expect(res.body.booking).toMatchObject({ status: 'pending', hold_expires_at: null });
  });

  it('answers 409 slot_unavailable for a time taken meanwhile, storing nothing', async () => {
    const { serviceId } = await publicService(a);
    expect((await book(serviceId, utc(day, '12:00'))).status).toBe(201);
    const before = (await eventsOf(a.tenantId, { type: 'booking.created' })).length;
    expectProblemCode(await book(serviceId, utc(day, '12:00')), 409, 'slot_unavailable');
    expectProblemCode(await book(serviceId, utc(day, '12:15')), 409, 'slot_unavailable');
    expect(await eventsOf(a.tenantId, { type: 'booking.created' })).toHaveLength(before);
  });

  it('lets a phone hold at most 2 pending bookings of a tenant (409 too_many_holds), another tenant apart', async () => {
    const { serviceId } = await publicService(a, { requires_confirmation: true });
    const other = await publicService(b, { requires_confirmation: true });
    const phone = newPhone();
    expect((await book(serviceId, utc(day, '13:00'), phone)).status).toBe(201);
    expect((await book(serviceId, utc(day, '14:00'), phone)).status).toBe(201);
    const before = (await eventsOf(a.tenantId, { type: 'booking.created' })).length;
    expectProblemCode(await book(serviceId, utc(day, '15:00'), phone), 409, 'too_many_holds');
    expect(await eventsOf(a.tenantId, { type: 'booking.created' })).toHaveLength(before);
    // Racing requests cannot pass the limit together either.
    const racer = newPhone();
    const race = await Promise.all(
      ['09:00', '09:30', '10:30', '11:30'].map((t) => book(serviceId, utc(dayFromNow(7), t), racer)),
    );
    expect(race.map((r) => r.status).sort()).toEqual([201, 201, 409, 409]);
    expect((await book(other.serviceId, utc(day, '13:00'), phone)).status).toBe(201);
  });

  it('lets one client address make PUBLIC_BOOKINGS_PER_HOUR bookings an hour, then 429 with Retry-After', async () => {
    process.env.PUBLIC_BOOKINGS_PER_HOUR = '2';
    resetSettingsCache();
    const { serviceId } = await publicService(a);
    const d = dayFromNow(8);
    // A refused booking gives its point back.
    expect((await book(serviceId, utc(d, '09:00'))).status).toBe(201);
    expect((await book(serviceId, utc(d, '09:00'))).status).toBe(409);
    expect((await book(serviceId, utc(d, '10:00'))).status).toBe(201);
    const limited = await book(serviceId, utc(d, '11:00'));
    expectProblemCode(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers a retry with the same Idempotency-Key with the first booking, and makes one', async () => {
    const { serviceId } = await publicService(a);
    const key = crypto.randomUUID();
    const phone = newPhone();
    const first = await book(serviceId, utc(day, '15:00'), phone, { 'Idempotency-Key': key });
    const again = await book(serviceId, utc(day, '15:00'), phone, { 'Idempotency-Key': key });
    expect(first.status, first.text).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // The tenant's own integration may use the same key text: it is another key.
    const own = await a.admin('POST', '/resources', {
      body: { name: 'Chair', time_zone: 'UTC', weekly_hours: {} },
      headers: { 'Idempotency-Key': key },
    });
    expect(own.status, own.text).toBe(201);
  });

  it('sends a paid service’s customer to Stripe Checkout, which returns to the manage page', async () => {
    await connectStripe(a, stripe);
    const { serviceId } = await publicService(a, {
      price: { amount: 4000, currency: 'EUR' },
      payment: 'full',
    });
    const res = await book(serviceId, utc(day, '16:00'));
    expect(res.status, res.text).toBe(201);
    expect(res.body.booking.status).toBe('pending');
    expect(res.body.booking.hold_expires_at).not.toBeNull();
    expect(res.body.checkout_url).toMatch(/^http/);
    const [session] = stripe.requestsTo('POST', /^\/v1\/checkout\/sessions$/).slice(-1);
    expect(session.params.success_url).toBe(res.body.manage_url);
    const managed = await api('GET', `/public/bookings/${tokenOf(res.body.manage_url)}`);
    expect(managed.body.payment).toMatchObject({
      status: 'pending',
      amount: 4000,
      currency: 'EUR',
      checkout_url: res.body.checkout_url,
    });
  });
});

describe('the manage link: /public/bookings/{token}', () => {
  async function booked(overrides: Record<string, unknown> = {}, at = utc(day, '09:00')) {
    const { serviceId } = await publicService(a, overrides);
    const res = await book(serviceId, at);
    expect(res.status, res.text).toBe(201);
    return {
      serviceId,
      id: res.body.booking.id as string,
      token: tokenOf(res.body.manage_url),
      url: res.body.manage_url as string,
    };
  }

  it('shows the booking and nothing of its customer, notes or metadata', async () => {
    const { id, token, url } = await booked();
    await a.admin('PATCH', `/bookings/${id}`, {
      body: { notes: 'secret-note-xyz', metadata: { crm: 'meta-xyz' } },
    });
    const res = await api('GET', `/public/bookings/${token}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id,
      status: 'confirmed',
      start_at: utc(day, '09:00'),
      service: { name: 'Haircut', duration_minutes: 30 },
      time_zone: 'Europe/Madrid',
      payment: null,
      can_change: true,
      manage_url: url,
    });
    for (const hidden of ['secret-note-xyz', 'meta-xyz', 'Lin', 'lin@example.test', '+34']) {
      expect(res.text).not.toContain(hidden);
    }
    expect(res.text).not.toMatch(/res_[0-9A-Z]{26}/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('moves it to a free time (atomic: a taken time is 409 slot_unavailable, unchanged)', async () => {
    const { serviceId, token } = await booked({}, utc(day, '09:30'));
    const starts = (body: { days: Record<string, { start: string }[]> }) =>
      body.days[day].map((s) => s.start);
    const slots = await api('GET', `/public/bookings/${token}/slots?start=${day}&end=${day}`);
    expect(slots.status, slots.text).toBe(200);
    // Its own interval is free for it, and for no one else.
    expect(starts(slots.body)).toContain(utc(day, '09:30'));
    const open = await api('GET', `/public/services/${serviceId}/slots?start=${day}&end=${day}`);
    expect(starts(open.body)).not.toContain(utc(day, '09:30'));
    expect((await book(serviceId, utc(day, '11:00'))).status).toBe(201);
    expectProblemCode(
      await api('POST', `/public/bookings/${token}/reschedule`, { body: { start_at: utc(day, '11:00') } }),
      409,
      'slot_unavailable',
    );
    expect((await api('GET', `/public/bookings/${token}`)).body.start_at).toBe(utc(day, '09:30'));
    const moved = await api('POST', `/public/bookings/${token}/reschedule`, {
      body: { start_at: utc(day, '09:45') },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({
      start_at: utc(day, '09:45'),
      end_at: utc(day, '10:15'),
      status: 'confirmed',
    });
  });

  it('cancels it (customer_cancelled); afterwards every change is 409 too_late_to_change', async () => {
    const { id, token } = await booked({}, utc(day, '10:30'));
    const res = await api('POST', `/public/bookings/${token}/cancel`, {
      headers: { 'Idempotency-Key': 'cancel-1' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      status: 'cancelled',
      cancellation_reason: 'customer_cancelled',
      can_change: false,
      change_until: null,
    });
    expect((await a.admin('GET', `/bookings/${id}`)).body.status).toBe('cancelled');
    // The retry with its key answers the same; a new attempt is too late.
    const replay = await api('POST', `/public/bookings/${token}/cancel`, {
      headers: { 'Idempotency-Key': 'cancel-1' },
    });
    expect(replay.body).toEqual(res.body);
    expectProblemCode(await api('POST', `/public/bookings/${token}/cancel`), 409, 'too_late_to_change');
    expectProblemCode(
      await api('POST', `/public/bookings/${token}/reschedule`, { body: { start_at: utc(day, '13:30') } }),
      409,
      'too_late_to_change',
    );
  });

  it('refuses changes inside the service’s cancel_notice_minutes (409 too_late_to_change), changing nothing', async () => {
    const { token } = await booked({ cancel_notice_minutes: 7 * 24 * 60 }, utc(day, '14:30'));
    const read = await api('GET', `/public/bookings/${token}`);
    expect(read.body.can_change).toBe(false);
    expect(read.body.change_until).toBe(
      new Date(Date.parse(utc(day, '14:30')) - 7 * 86_400_000).toISOString(),
    );
    expectProblemCode(await api('POST', `/public/bookings/${token}/cancel`), 409, 'too_late_to_change');
    expectProblemCode(
      await api('POST', `/public/bookings/${token}/reschedule`, { body: { start_at: utc(day, '15:30') } }),
      409,
      'too_late_to_change',
    );
    expect((await api('GET', `/public/bookings/${token}`)).body.status).toBe('confirmed');
  });

  it('answers 404 to an unknown or malformed token, and to a link 30 days after the booking’s end', async () => {
    const { id, token } = await booked({}, utc(day, '16:30'));
    const unknown = `mng_${'A'.repeat(43)}`;
    for (const t of [
      unknown,
      'mng_short',
      token.slice(0, -1),
      token.toLowerCase() === token ? `${token}x` : token.toLowerCase(),
    ]) {
      expectProblemCode(await api('GET', `/public/bookings/${t}`), 404, 'not_found');
      expectProblemCode(await api('POST', `/public/bookings/${t}/cancel`), 404, 'not_found');
    }
    await pgPool().query(
      "update bookings set start_at = now() - interval '31 days 1 hour', end_at = now() - interval '31 days' where id = $1",
      [id],
    );
    expectProblemCode(await api('GET', `/public/bookings/${token}`), 404, 'not_found');
    await pgPool().query(
      "update bookings set start_at = now() - interval '29 days 1 hour', end_at = now() - interval '29 days' where id = $1",
      [id],
    );
    expect((await api('GET', `/public/bookings/${token}`)).status).toBe(200);
  });
});
