import { InngestTestEngine } from '@inngest/test';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetSettingsCache, settings } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { exampleObject } from '@/server/events/payloads';
import { PERIODIC_JOBS } from '@/server/runtime/jobs';
import { createEndpoint, recoverDeliveries, resendDelivery, updateEndpoint } from '@/server/webhooks';
import { recordEvent } from '@/server/webhooks/outbox';
import { createTestTenant, type TestTenant } from '@/test/support/helpers';
import { type Receiver, startReceiver } from '@/test/support/webhook-receiver';
import { deliveryRelay, findUnrelayed, markRelayed } from '../deliveries/relay';
import { relayPass, type Send } from '../relay';
import { DELIVERY_REQUESTED, type DeliveryRequested, inngest } from './client';
import { deliverWebhook, periodicJobFunctions, relaySweepFunction } from './functions';

/** One relay pass over the deliveries only, with the given sender. */
const relayOutbox = (send: (requests: DeliveryRequested[]) => Promise<unknown>) =>
  relayPass(send as Send, [deliveryRelay]);

// The Inngest engine with the default schedule. The dev server cannot run here, so the functions
// run under @inngest/test: steps execute for real against the database and a loopback receiver,
// every sleep is mocked by id (an unmocked sleep would wait for real).
process.env.DELIVERY_ENGINE = 'inngest';
delete process.env.WEBHOOK_RETRY_WAITS;
resetSettingsCache();

const SLEEPS = ['wait-1', 'wait-2', 'wait-3', 'wait-4', 'wait-5'];
const mockedSleeps = () => SLEEPS.map((id) => ({ id, handler: () => undefined }));

let tenant: TestTenant;
const receivers: Receiver[] = [];
beforeAll(async () => {
  tenant = await createTestTenant('inngest');
});
afterAll(() => Promise.all(receivers.map((r) => r.close())));

async function setUp(respond: Parameters<typeof startReceiver>[0]) {
  const hook = await startReceiver(respond);
  receivers.push(hook);
  const db = forTenant(tenant.tenantId);
  const endpoint = await createEndpoint(operationContext(tenant.tenantId, SYSTEM_ACTOR), {
    url: hook.url,
    events: ['booking.*'],
  });
  const event = await transaction({ tenantId: tenant.tenantId }, (tx) =>
    recordEvent(tx, {
      tenantId: tenant.tenantId,
      type: 'booking.created',
      object: { ...exampleObject('booking.created'), id: `bkg_${hook.url}` },
    }),
  );
  const delivery = await db.delivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
  const trigger = {
    name: DELIVERY_REQUESTED,
    id: delivery.id,
    data: { tenantId: tenant.tenantId, deliveryId: delivery.id, endpointId: endpoint.id, eventId: event.id },
  };
  return { hook, endpoint, event, delivery, trigger, db };
}

describe('deliver-webhook', () => {
  it('runs one attempt step per attempt with sleeps of 1s, 5s, 25s, 125s, 625s, then fails', async () => {
    const { hook, endpoint, event, delivery, trigger, db } = await setUp(() => ({ status: 500 }));
    const engine = new InngestTestEngine({
      function: deliverWebhook,
      events: [trigger],
      steps: mockedSleeps(),
    });
    const { result, ctx } = await engine.execute();
    expect(result).toEqual({ kind: 'failed', attempt: 6 });

    const runIds = ctx.step.run.mock.calls.map((call) => call[0]);
    expect(runIds).toEqual(['attempt-1', 'attempt-2', 'attempt-3', 'attempt-4', 'attempt-5', 'attempt-6']);
    const sleeps = ctx.step.sleep.mock.calls.map((call) => [call[0], call[1]]);
    expect(sleeps).toEqual([
      ['wait-1', 1_000],
      ['wait-2', 5_000],
      ['wait-3', 25_000],
      ['wait-4', 125_000],
      ['wait-5', 625_000],
    ]);

    // Six requests, each signed afresh (its own attempt number and signature), each verifiable.
    expect(hook.received.map((h) => h.headers['x-service-delivery-attempt'])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
    ]);
    const verifier = new Webhook(endpoint.webhook_secret);
    for (const h of hook.received) {
      expect(
        verifier.verify(h.body, {
          'webhook-id': String(h.headers['webhook-id']),
          'webhook-timestamp': String(h.headers['webhook-timestamp']),
          'webhook-signature': String(h.headers['webhook-signature']),
        }),
      ).toEqual(event);
    }
    // Signed at each attempt's own start: the signed timestamp is that attempt's start time.
    const attempts = await db.deliveryAttempt.findMany({
      where: { deliveryId: delivery.id },
      orderBy: { attemptNumber: 'asc' },
    });
    expect(hook.received.map((h) => Number(h.headers['webhook-timestamp']))).toEqual(
      attempts.map((a) => Math.floor(a.startedAt.getTime() / 1000)),
    );
    expect(await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({
      status: 'failed',
      attemptCount: 6,
    });
  });

  it('stops at the first success', async () => {
    const { hook, trigger } = await setUp((i) => ({ status: i < 2 ? 502 : 200 }));
    const engine = new InngestTestEngine({
      function: deliverWebhook,
      events: [trigger],
      steps: mockedSleeps(),
    });
    const { result, ctx } = await engine.execute();
    expect(result).toEqual({ kind: 'succeeded', attempt: 3 });
    expect(ctx.step.run.mock.calls.map((c) => c[0])).toEqual(['attempt-1', 'attempt-2', 'attempt-3']);
    expect(ctx.step.sleep.mock.calls.map((c) => c[0])).toEqual(['wait-1', 'wait-2']);
    expect(hook.received).toHaveLength(3);
  });

  it('sends nothing once the endpoint is disabled', async () => {
    const { hook, endpoint, trigger, db } = await setUp(() => ({ status: 200 }));
    await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { isActive: false } });
    const engine = new InngestTestEngine({
      function: deliverWebhook,
      events: [trigger],
      steps: mockedSleeps(),
    });
    const { result } = await engine.execute();
    expect(result).toMatchObject({ kind: 'skipped', reason: 'endpoint_inactive' });
    expect(hook.received).toHaveLength(0);
  });
});

describe("fair delivery on Inngest (security finding 1: one tenant can starve every other tenant's webhooks)", () => {
  it('caps runs in flight per endpoint and per tenant with concurrency keys, as the worker caps its claims', () => {
    expect(deliverWebhook.opts.concurrency).toEqual([
      { limit: settings().WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT, key: 'event.data.endpointId' },
      { limit: settings().WEBHOOK_MAX_IN_FLIGHT_PER_TENANT, key: 'event.data.tenantId' },
    ]);
  });

  it('relays the keys with every delivery', async () => {
    const { delivery, endpoint } = await setUp(() => ({ status: 200 }));
    const sent: Array<{ id: string; data: Record<string, unknown> }> = [];
    await relayOutbox(async (requests) => {
      sent.push(...(requests as typeof sent));
    });
    expect(sent.find((r) => r.id === delivery.id)?.data).toMatchObject({
      tenantId: tenant.tenantId,
      endpointId: endpoint.id,
    });
  });
});

describe('recovery on Inngest (POST /webhooks/{id}/recover)', () => {
  it('relays a recovered delivery as a new run that starts a new round of attempts', async () => {
    let healthy = false;
    const { hook, delivery, event, trigger, db } = await setUp(() => ({ status: healthy ? 200 : 500 }));
    await new InngestTestEngine({
      function: deliverWebhook,
      events: [trigger],
      steps: mockedSleeps(),
    }).execute();
    await relayOutbox(async () => {});
    expect(await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({
      status: 'failed',
      attemptCount: 6,
    });

    const ctx = operationContext(tenant.tenantId, SYSTEM_ACTOR);
    const since = new Date(Date.now() - 60_000).toISOString();
    expect(await recoverDeliveries(ctx, { id: delivery.endpointId, since })).toEqual({
      dryRun: false,
      count: 1,
    });
    // Through the hand-over: the row is reset to unrelayed, and the relay sends the delivery under a new id.
    expect((await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).relayedAt).toBeNull();
    const sent: Array<{ id: string; name: string; data: Record<string, unknown> }> = [];
    await relayOutbox(async (requests) => {
      sent.push(...(requests as typeof sent));
    });
    const request = sent.find((r) => r.data.deliveryId === delivery.id);
    expect(request).toEqual({
      name: DELIVERY_REQUESTED,
      id: `${delivery.id}~r6`,
      data: { ...trigger.data, attemptBase: 6 },
    });

    healthy = true;
    hook.received.length = 0;
    const { result, ctx: run } = await new InngestTestEngine({
      function: deliverWebhook,
      events: [request as never],
      steps: mockedSleeps(),
    }).execute();
    expect(result).toEqual({ kind: 'succeeded', attempt: 7 });
    expect(run.step.run.mock.calls.map((c) => c[0])).toEqual(['attempt-7']);
    expect(hook.received.map((h) => h.headers['x-service-delivery-attempt'])).toEqual(['1']);
    expect(hook.received[0].headers['webhook-id']).toBe(event.id);
  });

  it('a recovery of a disabled endpoint is refused', async () => {
    const { endpoint } = await setUp(() => ({ status: 200 }));
    const ctx = operationContext(tenant.tenantId, SYSTEM_ACTOR);
    await updateEndpoint(ctx, { id: endpoint.id, is_active: false });
    await expect(
      recoverDeliveries(ctx, { id: endpoint.id, since: '2020-01-01T00:00:00Z' }),
    ).rejects.toMatchObject({
      code: 'endpoint_disabled',
    });
  });
});

describe('outbox relay and sweep', () => {
  it('relays each unrelayed delivery once, keyed by delivery id', async () => {
    const { delivery, db } = await setUp(() => ({ status: 200 }));
    expect((await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).relayedAt).toBeNull();
    const sent: unknown[] = [];
    await relayOutbox(async (requests) => {
      sent.push(...requests);
    });
    expect(sent).toContainEqual(expect.objectContaining({ name: DELIVERY_REQUESTED, id: delivery.id }));
    expect((await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).relayedAt).not.toBeNull();
    const again: unknown[] = [];
    await relayOutbox(async (requests) => {
      again.push(...requests);
    });
    expect(again).toEqual([]);
  });

  it('relays a resend: the resend is a new, unrelayed delivery of the event, which is then requested', async () => {
    const { delivery, event, db } = await setUp(() => ({ status: 200 }));
    await relayOutbox(async () => {});
    const resent = await resendDelivery(operationContext(tenant.tenantId, SYSTEM_ACTOR), { id: delivery.id });
    expect((await db.delivery.findUniqueOrThrow({ where: { id: resent.id } })).relayedAt).toBeNull();
    const sent: Array<{ id: string; data: { eventId: string } }> = [];
    await relayOutbox(async (requests) => {
      sent.push(...(requests as typeof sent));
    });
    expect(sent.filter((r) => r.data.eventId === event.id).map((r) => r.id)).toContain(resent.id);
    expect((await db.delivery.findUniqueOrThrow({ where: { id: resent.id } })).relayedAt).not.toBeNull();
  });

  it('a delivery recovered between a pass reading it and marking it stays unrelayed for the next pass', async () => {
    const { delivery, db } = await setUp(() => ({ status: 200 }));
    const read = await findUnrelayed();
    expect(read.requests.map((r) => r.id)).toContain(delivery.id);
    // Meanwhile its round runs and fails, and a recovery starts a new one.
    await db.delivery.update({
      where: { id: delivery.id },
      data: { status: 'failed', attemptCount: 6, nextAttemptAt: null },
    });
    const since = new Date(Date.now() - 60_000).toISOString();
    await recoverDeliveries(operationContext(tenant.tenantId, SYSTEM_ACTOR), {
      id: delivery.endpointId,
      since,
    });
    await markRelayed(read.rows);
    expect((await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).relayedAt).toBeNull();
    const sent: Array<{ id: string }> = [];
    await relayOutbox(async (requests) => {
      sent.push(...requests);
    });
    expect(sent.map((r) => r.id)).toContain(`${delivery.id}~r6`);
  });

  it('the cron sweep sends what the relay never sent (a crash between commit and send)', async () => {
    const { delivery, event, db } = await setUp(() => ({ status: 200 }));
    // Every periodic job is a cron function on Inngest, and so is the relay's sweep.
    expect(periodicJobFunctions.map((f) => f.id())).toEqual(PERIODIC_JOBS.map((j) => j.name));
    const sweep = relaySweepFunction;
    expect(sweep.id()).toBe('relay-sweep');
    const sent = vi.spyOn(inngest, 'send').mockResolvedValue({ ids: [] } as never);
    try {
      const { result } = await new InngestTestEngine({ function: sweep! }).execute();
      // Other tests of this file leave unrelayed deliveries too: all of them go out.
      expect((result as { relayed: number }).relayed).toBeGreaterThanOrEqual(1);
      const [[payload]] = sent.mock.calls as unknown as [[Array<{ id: string; data: { eventId: string } }>]];
      expect(payload).toContainEqual(
        expect.objectContaining({ id: delivery.id, data: expect.objectContaining({ eventId: event.id }) }),
      );
    } finally {
      sent.mockRestore();
    }
    expect((await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).relayedAt).not.toBeNull();
  });
});
