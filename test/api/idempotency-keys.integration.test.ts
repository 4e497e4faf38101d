import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { forTenant } from '@/server/db/tenant-scope';
import { bookingBody, givenBooking, paymentBody } from '../support/builders';
import { eventsOf, expectProblemCode } from '../support/domain-fixtures';
import { apiSuite } from '../support/harness';

const { tenant: a, other: b } = apiSuite({ other: true, agent: true });

const booking = (name: string) => bookingBody({ customer: { name } });
const withKey = (key: string, body?: unknown) => ({ body, headers: { 'Idempotency-Key': key } });
const bookingsNamed = (tenantId: string, name: string) =>
  forTenant(tenantId).booking.count({ where: { customerName: name } });

describe('Idempotency-Key', () => {
  it('replays the first response (same status and body) and does the work once', async () => {
    const key = randomUUID();
    const name = `replay-${key}`;
    const first = await a.admin('POST', '/bookings', withKey(key, booking(name)));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await a.admin('POST', '/bookings', withKey(key, booking(name)));
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await bookingsNamed(a.tenantId, name)).toBe(1);
    expect(await eventsOf(a.tenantId, { type: 'booking.created', objectId: first.body.id })).toHaveLength(1);
    // Without the key the same body is new work.
    expect((await a.admin('POST', '/bookings', { body: booking(name) })).body.id).not.toBe(first.body.id);
  });

  it('does the work once when identical requests race', async () => {
    const key = randomUUID();
    const name = `race-${key}`;
    const results = await Promise.all(
      Array.from({ length: 6 }, () => a.admin('POST', '/bookings', withKey(key, booking(name)))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await bookingsNamed(a.tenantId, name)).toBe(1);
    expect(
      await eventsOf(a.tenantId, { type: 'booking.created', objectId: results[0].body.id }),
    ).toHaveLength(1);
  });

  it('answers 409 idempotency_key_reused for another body or another operation', async () => {
    const key = randomUUID();
    await a.admin('POST', '/bookings', withKey(key, booking(`first-${key}`)));
    expectProblemCode(
      await a.admin('POST', '/bookings', withKey(key, booking(`other-${key}`))),
      409,
      'idempotency_key_reused',
    );
    expectProblemCode(
      await a.admin('POST', '/payments', withKey(key, paymentBody({ amount: 100 }))),
      409,
      'idempotency_key_reused',
    );
    expect(await bookingsNamed(a.tenantId, `other-${key}`)).toBe(0);
    expect(await forTenant(a.tenantId).payment.count()).toBe(0);
  });

  it('replays a refused state change as the same problem, even after the state changed', async () => {
    const { id } = await givenBooking(a.admin, 'pending', { customer: { name: 'refused' } });
    const key = randomUUID();
    const first = await a.admin('POST', `/bookings/${id}/complete`, withKey(key));
    expectProblemCode(first, 409, 'invalid_transition');
    await a.admin('POST', `/bookings/${id}/confirm`);
    const replay = await a.admin('POST', `/bookings/${id}/complete`, withKey(key));
    expectProblemCode(replay, 409, 'invalid_transition');
    expect(replay.body.detail).toBe(first.body.detail);
    expect(replay.body.request_id).toBe(replay.headers.get('x-request-id'));
    expect(replay.headers.get('content-type')).toBe('application/problem+json');
    expect((await a.admin('GET', `/bookings/${id}`)).body.status).toBe('confirmed');
  });

  it('does not spend the key on a request refused before it ran (validation)', async () => {
    const key = randomUUID();
    const name = `fixed-${key}`;
    expectProblemCode(
      await a.admin('POST', '/bookings', withKey(key, { customer: { name } })),
      422,
      'validation_failed',
    );
    const retry = await a.admin('POST', '/bookings', withKey(key, booking(name)));
    expect(retry.status).toBe(201);
  });

  it('expires keys after 24 hours', async () => {
    const key = randomUUID();
    const name = `expiry-${key}`;
    const first = await a.admin('POST', '/bookings', withKey(key, booking(name)));
    const row = await forTenant(a.tenantId).idempotencyKey.findFirstOrThrow({ where: { key } });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(24 * 60 * 60 * 1000);
    await forTenant(a.tenantId).idempotencyKey.updateMany({
      where: { key },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const later = await a.admin('POST', '/bookings', withKey(key, booking(name)));
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
    expect(await bookingsNamed(a.tenantId, name)).toBe(2);
  });

  it('keeps keys per tenant', async () => {
    const key = randomUUID();
    const ra = await a.admin('POST', '/bookings', withKey(key, booking('tenant-scoped')));
    const rb = await b.admin('POST', '/bookings', withKey(key, booking('tenant-scoped')));
    expect(rb.status).toBe(201);
    expect(rb.body.id).not.toBe(ra.body.id);
    expect(await bookingsNamed(b.tenantId, 'tenant-scoped')).toBe(1);
  });

  it('refuses a key longer than 255 characters', async () => {
    expectProblemCode(
      await a.admin('POST', '/bookings', withKey('k'.repeat(256), booking('long'))),
      422,
      'validation_failed',
    );
  });

  it('works on action routes: a replayed confirm does not emit twice', async () => {
    const { id } = await givenBooking(a.agent, 'pending', { customer: { name: 'action' } });
    const key = randomUUID();
    const first = await a.agent('POST', `/bookings/${id}/confirm`, withKey(key));
    const second = await a.agent('POST', `/bookings/${id}/confirm`, withKey(key));
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect(await eventsOf(a.tenantId, { type: 'booking.confirmed', objectId: id })).toHaveLength(1);
  });
});
