import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPE_NAMES, type EventType, subscriptionMatches } from '@/server/client-safe/event-catalog';
import { directDatabaseUrl } from '@/server/db/client';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { exampleEnvelope, exampleObject } from '@/server/events/payloads';
import { holdDelivery } from '@/test/support/domain-fixtures';
import { createTestTenant, type TestTenant } from '@/test/support/helpers';
import { DELIVERIES_CHANNEL } from './hand-over';
import { createEndpoint, recoverDeliveries, resendDelivery } from './index';
import { recordEvent } from './outbox';

// The one engine-neutral hand-over: delivery rows plus a NOTIFY that PostgreSQL delivers on commit.
// New deliveries, resends and recoveries all hand over the same way; nothing names an engine.
let tenant: TestTenant;
let listener: pg.Client;
const notifications: string[] = [];

beforeAll(async () => {
  tenant = await createTestTenant('outbox');
  // LISTEN needs a session: the direct URL when a transaction-mode pooler fronts DATABASE_URL.
  listener = new pg.Client({ connectionString: directDatabaseUrl() });
  await listener.connect();
  listener.on('notification', (n) => notifications.push(n.channel));
  await listener.query(`listen ${DELIVERIES_CHANNEL}`);
});
afterAll(() => listener.end());

/**
 * How many notifications `run` caused: NOTIFY reaches a listener within milliseconds of the commit,
 * so this waits up to 2 s for the first (longer on a loaded machine), then 200 ms for any more.
 */
async function notified(run: () => Promise<unknown>): Promise<number> {
  const before = notifications.length;
  await run().catch(() => undefined);
  const until = Date.now() + 2_000;
  while (notifications.length === before && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  return notifications.length - before;
}

const ctx = () => operationContext(tenant.tenantId, SYSTEM_ACTOR);
const record = (id: string) =>
  transaction({ tenantId: tenant.tenantId }, (tx) =>
    recordEvent(tx, {
      tenantId: tenant.tenantId,
      type: 'booking.created',
      object: { ...exampleObject('booking.created'), id },
    }),
  );

describe('the hand-over', () => {
  it('is the delivery rows, due now and not yet relayed, and one NOTIFY on commit', async () => {
    const endpoint = await createEndpoint(ctx(), { url: 'http://127.0.0.1:9/hook', events: ['booking.*'] });
    let eventId = '';
    expect(
      await notified(async () => {
        eventId = (await record('bkg_handed_over')).id;
      }),
    ).toBe(1);
    const [delivery] = await forTenant(tenant.tenantId).delivery.findMany({ where: { eventId } });
    expect(delivery).toMatchObject({
      endpointId: endpoint.id,
      status: 'pending',
      attemptCount: 0,
      relayedAt: null,
    });
    expect(delivery.nextAttemptAt?.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('sends nothing for a transaction that rolls back, and writes nothing', async () => {
    const db = forTenant(tenant.tenantId);
    const count = await db.delivery.count();
    expect(
      await notified(() =>
        transaction({ tenantId: tenant.tenantId }, async (tx) => {
          await recordEvent(tx, {
            tenantId: tenant.tenantId,
            type: 'booking.created',
            object: { ...exampleObject('booking.created'), id: 'bkg_rolled_back' },
          });
          throw new Error('the change fails after its event');
        }),
      ),
    ).toBe(0);
    expect(await db.delivery.count()).toBe(count);
  });

  it('a resend and a recovery hand over the same way: rows due and unrelayed, and a NOTIFY', async () => {
    const db = forTenant(tenant.tenantId);
    const event = await record('bkg_again');
    const original = await db.delivery.findFirstOrThrow({ where: { eventId: event.id } });
    await db.delivery.update({
      where: { id: original.id },
      data: { status: 'failed', attemptCount: 6, nextAttemptAt: null, relayedAt: new Date() },
    });

    let resentId = '';
    expect(
      await notified(async () => {
        resentId = (await resendDelivery(ctx(), { id: original.id })).id;
      }),
    ).toBe(1);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: resentId } })).toMatchObject({
      status: 'pending',
      resendOfId: original.id,
      relayedAt: null,
    });

    // A worker's claim left from the delivery's last round: requeued, it is in flight for no cap.
    await holdDelivery(tenant.tenantId, original);
    const since = new Date(Date.now() - 60_000).toISOString();
    expect(
      await notified(async () => {
        await recoverDeliveries(ctx(), { id: original.endpointId, since });
      }),
    ).toBe(1);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: original.id } })).toMatchObject({
      status: 'pending',
      attemptBase: 6,
      relayedAt: null,
    });
    expect(await db.deliveryClaim.count({ where: { deliveryId: original.id } })).toBe(0);
    // A recovery with nothing to requeue wakes nobody.
    expect(
      await notified(() =>
        recoverDeliveries(ctx(), { id: original.endpointId, since: '2000-01-01T00:00:00Z' }),
      ),
    ).toBe(0);
  });
});

describe('the endpoints an event goes to', () => {
  it('are the active ones whose subscriptions match, as subscriptionMatches says, for every type', async () => {
    const other = await createTestTenant('outbox targets');
    const octx = operationContext(other.tenantId, SYSTEM_ACTOR);
    const subscriptions = [
      ['*'],
      ['booking.*'],
      ['booking.confirmed'],
      ['conversation.*'],
      ['conversation.message.*'],
      ['payment.succeeded', 'booking.cancelled'],
      ['webhook.*'],
    ];
    const endpoints = [];
    for (const events of subscriptions)
      endpoints.push(await createEndpoint(octx, { url: 'http://127.0.0.1:9/hook', events }));
    const inactive = await createEndpoint(octx, { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    await forTenant(other.tenantId).webhookEndpoint.update({
      where: { id: inactive.id },
      data: { isActive: false },
    });
    const about = endpoints[0].id;
    for (const type of EVENT_TYPE_NAMES as EventType[]) {
      const event = await transaction({ tenantId: other.tenantId }, (tx) =>
        recordEvent(tx, {
          tenantId: other.tenantId,
          type,
          object: exampleObject(type),
          previous: exampleEnvelope(type).data.previous as never,
          aboutEndpointId: about,
        }),
      );
      const got = await forTenant(other.tenantId).delivery.findMany({ where: { eventId: event.id } });
      const expected =
        type === 'webhook.test'
          ? []
          : endpoints.filter((e) => e.id !== about && subscriptionMatches(e.events, type)).map((e) => e.id);
      expect(got.map((d) => d.endpointId).sort(), type).toEqual(expected.sort());
    }
  });

  it('are all written when more match than the ids minted ahead (a second try)', async () => {
    const many = await createTestTenant('outbox many');
    const mctx = operationContext(many.tenantId, SYSTEM_ACTOR);
    for (let i = 0; i < 20; i++)
      await createEndpoint(mctx, { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    const event = await transaction({ tenantId: many.tenantId }, (tx) =>
      recordEvent(tx, {
        tenantId: many.tenantId,
        type: 'booking.created',
        object: exampleObject('booking.created'),
      }),
    );
    const rows = await forTenant(many.tenantId).delivery.findMany({ where: { eventId: event.id } });
    expect(new Set(rows.map((r) => r.endpointId)).size).toBe(20);
    expect(new Set(rows.map((r) => r.id)).size).toBe(20);
    expect(await forTenant(many.tenantId).event.count({ where: { id: event.id } })).toBe(1);
  });
});
