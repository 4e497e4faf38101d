import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { type DeliveryWorker, startDeliveryWorker } from '@/server/runtime/deliveries/worker';
import { runAttempt } from '@/server/webhooks/attempt/run-attempt';
import { sendDisabledNotice } from '@/server/webhooks/notices/disabled-email';
import { holdDelivery, recordBookingEvents } from '@/test/support/domain-fixtures';
import { apiSuite, type SuiteTenant } from '../support/harness';
import { type Receiver, type Respond, startReceiver } from '../support/webhook-receiver';

// docs/operations.md "Webhook operations", auto-disable and the two webhook.* notices. Attempts are driven directly with
// runAttempt (the function both engines run) except where the worker itself is the point.
process.env.WEBHOOK_RETRY_WAITS = '50ms,50ms';
process.env.WEBHOOK_TIMEOUT_MS = '1000';
process.env.WEBHOOK_DISABLE_AFTER_FAILURES = '3';
process.env.WEBHOOK_DISABLE_AFTER = '0s';
delete process.env.SMTP_URL;
resetSettingsCache();

const { newTenant } = apiSuite({ tenant: false });
const receivers: Receiver[] = [];
afterAll(() => Promise.all(receivers.map((r) => r.close())));

function settingsFor(env: Record<string, string | undefined>) {
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetSettingsCache();
}
beforeEach(() =>
  settingsFor({ WEBHOOK_DISABLE_AFTER_FAILURES: '3', WEBHOOK_DISABLE_AFTER: '0s', SMTP_URL: undefined }),
);

async function receiver(respond: Respond) {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

/** A tenant with a failing endpoint (subscribed to everything) and an observer of webhook.* notices. */
async function setUp(
  failing: Respond = () => ({ status: 500 }),
  observer: Respond = () => ({ status: 200 }),
) {
  const t = await newTenant('auto-disable');
  const bad = await receiver(failing);
  const watch = await receiver(observer);
  const endpoint = (await t.admin('POST', '/webhooks', { body: { url: bad.url, events: ['*'] } })).body;
  const watcher = (await t.admin('POST', '/webhooks', { body: { url: watch.url, events: ['webhook.*'] } }))
    .body;
  return { t, db: forTenant(t.tenantId), bad, watch, endpoint, watcher };
}

async function bookingEvents(t: SuiteTenant, count: number) {
  await recordBookingEvents(t.tenantId, count, { objectIdPrefix: `bkg_${Math.random()}` });
}

async function deliveriesOf(t: SuiteTenant, endpointId: string) {
  return forTenant(t.tenantId).delivery.findMany({
    where: { endpointId },
    include: { event: true },
    orderBy: { id: 'asc' },
  });
}

const attempt = (t: SuiteTenant, deliveryId: string, n: number) =>
  runAttempt({ tenantId: t.tenantId, deliveryId, attempt: n });

describe('auto-disable (README "Webhook operations")', () => {
  it('disables after N consecutive failures: reason, pending deliveries failed, one notice to others only', async () => {
    const { t, db, endpoint, watcher, bad } = await setUp();
    await bookingEvents(t, 4);
    const [d1, d2, d3, d4] = await deliveriesOf(t, endpoint.id);
    // A worker holds the untried one: disabling fails it and ends the claim.
    await holdDelivery(t.tenantId, d4);

    await attempt(t, d1.id, 1);
    await attempt(t, d2.id, 1);
    let row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row).toMatchObject({ isActive: true, failureStreak: 2, disabledReason: null });
    expect(row.failureStreakSince).not.toBeNull();

    await attempt(t, d3.id, 1);
    row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row).toMatchObject({ isActive: false, disabledReason: 'failing' });
    expect(row.disabledAt).not.toBeNull();
    expect(bad.received).toHaveLength(3);

    // Every pending delivery of the endpoint is failed: the three with retries scheduled and the untried one.
    const after = await deliveriesOf(t, endpoint.id);
    expect(after.map((d) => [d.id, d.status])).toEqual([
      [d1.id, 'failed'],
      [d2.id, 'failed'],
      [d3.id, 'failed'],
      [d4.id, 'failed'],
    ]);
    expect(await db.deliveryClaim.count({ where: { endpointId: endpoint.id } })).toBe(0);

    // One webhook.endpoint.disabled, its object the endpoint in its public shape; delivered to the
    // observer only, never to the endpoint it is about (which subscribes to *).
    const notices = await db.event.findMany({ where: { type: { startsWith: 'webhook.' } } });
    expect(notices.map((e) => e.type)).toEqual(['webhook.endpoint.disabled']);
    const object = (notices[0].payload as { data: { object: Record<string, unknown> } }).data.object;
    const { body: publicShape } = await t.admin('GET', `/webhooks/${endpoint.id}`);
    expect(object).toMatchObject({
      ...publicShape,
      recent_attempts: 3,
      updated_at: expect.any(String),
    });
    expect(object).not.toHaveProperty('webhook_secret');
    expect(JSON.stringify(notices[0].payload)).not.toContain('whsec_');
    expect(publicShape).toMatchObject({ is_active: false, disabled_reason: 'failing' });
    expect(publicShape.disabled_at).toBe(row.disabledAt?.toISOString());
    const noticeDeliveries = await db.delivery.findMany({ where: { eventId: notices[0].id } });
    expect(noticeDeliveries.map((d) => d.endpointId)).toEqual([watcher.id]);
    // Failed by the disable, not exhausted: no webhook.delivery.exhausted for them.
    expect(await db.event.count({ where: { type: 'webhook.delivery.exhausted' } })).toBe(0);

    // A later attempt of a delivery sends nothing; the endpoint is not disabled twice.
    expect(await attempt(t, d4.id, 1)).toMatchObject({ kind: 'skipped', reason: 'final' });
    expect(bad.received).toHaveLength(3);
  });

  it('waits until the first failure of the streak is WEBHOOK_DISABLE_AFTER old', async () => {
    settingsFor({ WEBHOOK_DISABLE_AFTER: '1h' });
    const { t, db, endpoint } = await setUp();
    await bookingEvents(t, 4);
    const [d1, d2, d3, d4] = await deliveriesOf(t, endpoint.id);
    for (const d of [d1, d2, d3]) await attempt(t, d.id, 1);
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
      isActive: true,
      failureStreak: 3,
    });
    // The streak began more than an hour ago: the next failure disables.
    await db.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { failureStreakSince: new Date(Date.now() - 3_600_000 - 1_000) },
    });
    await attempt(t, d4.id, 1);
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
      isActive: false,
      disabledReason: 'failing',
      failureStreak: 4,
    });
  });

  it('a 2xx resets the streak', async () => {
    const { t, db, endpoint } = await setUp((i) => ({ status: i === 2 ? 200 : 503 }));
    await bookingEvents(t, 5);
    const ds = await deliveriesOf(t, endpoint.id);
    await attempt(t, ds[0].id, 1);
    await attempt(t, ds[1].id, 1);
    const streak = () => db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(await streak()).toMatchObject({ failureStreak: 2 });
    await attempt(t, ds[2].id, 1); // 200
    expect(await streak()).toMatchObject({ failureStreak: 0, failureStreakSince: null, isActive: true });
    await attempt(t, ds[3].id, 1);
    await attempt(t, ds[4].id, 1);
    expect(await streak()).toMatchObject({ failureStreak: 2, isActive: true });
  });

  it('0 never disables', async () => {
    settingsFor({ WEBHOOK_DISABLE_AFTER_FAILURES: '0' });
    const { t, db, endpoint } = await setUp();
    await bookingEvents(t, 5);
    for (const d of await deliveriesOf(t, endpoint.id)) await attempt(t, d.id, 1);
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
      isActive: true,
      failureStreak: 5,
    });
  });

  it('PATCH is_active:true clears the reason and the streak', async () => {
    const { t, db, endpoint } = await setUp();
    await bookingEvents(t, 3);
    for (const d of await deliveriesOf(t, endpoint.id)) await attempt(t, d.id, 1);
    expect((await t.admin('GET', `/webhooks/${endpoint.id}`)).body.disabled_reason).toBe('failing');
    // A person's is_active:false keeps the service's reason.
    expect(
      (await t.admin('PATCH', `/webhooks/${endpoint.id}`, { body: { is_active: false } })).body,
    ).toMatchObject({ is_active: false, disabled_reason: 'failing' });
    const { status, body } = await t.admin('PATCH', `/webhooks/${endpoint.id}`, {
      body: { is_active: true },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ is_active: true, disabled_reason: null, disabled_at: null });
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
      failureStreak: 0,
      failureStreakSince: null,
    });
  });
});

describe('webhook.delivery.exhausted', () => {
  it('is recorded when the last attempt fails, to every subscriber but the endpoint it is about', async () => {
    settingsFor({ WEBHOOK_DISABLE_AFTER_FAILURES: '0' });
    const { t, db, endpoint, watcher } = await setUp((i) => ({ status: i === 2 ? 418 : 500 }));
    await bookingEvents(t, 1);
    const [d] = await deliveriesOf(t, endpoint.id);
    expect(await attempt(t, d.id, 1)).toMatchObject({ kind: 'retry' });
    expect(await attempt(t, d.id, 2)).toMatchObject({ kind: 'retry' });
    expect(await db.event.count({ where: { type: 'webhook.delivery.exhausted' } })).toBe(0);
    expect(await attempt(t, d.id, 3)).toEqual({ kind: 'failed', attempt: 3 });

    const [notice] = await db.event.findMany({ where: { type: 'webhook.delivery.exhausted' } });
    expect((notice.payload as { data: unknown }).data).toEqual({
      object: {
        delivery_id: d.id,
        endpoint_id: endpoint.id,
        event_id: d.eventId,
        event_type: 'booking.created',
        attempts: 3,
        last_status: 418,
      },
    });
    const targets = await db.delivery.findMany({ where: { eventId: notice.id } });
    expect(targets.map((x) => x.endpointId)).toEqual([watcher.id]);
  });

  it("a notice's own delivery failing, exhausting or streaking records no further notice", async () => {
    settingsFor({ WEBHOOK_DISABLE_AFTER_FAILURES: '1' });
    // The observer of notices fails too; the booking endpoint fails once and succeeds after.
    const { t, db, endpoint, watcher } = await setUp(
      (i) => ({ status: i === 0 ? 500 : 200 }),
      () => ({ status: 500 }),
    );
    await bookingEvents(t, 1);
    const [d] = await deliveriesOf(t, endpoint.id);
    await attempt(t, d.id, 1); // fails: the streak of 1 disables it, recording webhook.endpoint.disabled
    const [disabled] = await db.event.findMany({ where: { type: 'webhook.endpoint.disabled' } });
    const [toWatcher] = await db.delivery.findMany({ where: { eventId: disabled.id } });
    expect(toWatcher.endpointId).toBe(watcher.id);
    for (let n = 1; n <= 3; n++) await attempt(t, toWatcher.id, n);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: toWatcher.id } })).toMatchObject({
      status: 'failed',
      attemptCount: 3,
    });
    // No exhausted notice for the notice, and the observer's failures never count toward its streak.
    expect(
      (await db.event.findMany({ where: { type: { startsWith: 'webhook.' } } })).map((e) => e.type),
    ).toEqual(['webhook.endpoint.disabled']);
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: watcher.id } })).toMatchObject({
      isActive: true,
      failureStreak: 0,
    });
  });
});

describe('the worker engine keeps the rule too (its batched records)', () => {
  let worker: DeliveryWorker | undefined;
  afterAll(() => worker?.stop());

  it('disables an endpoint whose deliveries fail under the worker', async () => {
    const { t, db, endpoint, watch } = await setUp();
    worker = await startDeliveryWorker({ pollIntervalMs: 20 });
    await bookingEvents(t, 3);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      if (!row.isActive) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
      isActive: false,
      disabledReason: 'failing',
    });
    // The notice reaches the observer through the same worker.
    const [got] = await watch.waitFor(1);
    expect(JSON.parse(got.body)).toMatchObject({
      type: 'webhook.endpoint.disabled',
      data: { object: { id: endpoint.id } },
    });
    await worker.stop();
    worker = undefined;
  });
});

describe('e-mail notice', () => {
  let smtp: SMTPServer;
  const mails: { to: string[]; data: string }[] = [];
  let port = 0;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            // Quoted-printable soft line breaks undone, so the text reads as written.
            data: Buffer.concat(chunks)
              .toString('utf8')
              .replace(/=\r?\n/g, ''),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it("goes to the tenant's admins when SMTP_URL is set", async () => {
    settingsFor({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    const { t, endpoint } = await setUp();
    await bookingEvents(t, 3);
    for (const d of await deliveriesOf(t, endpoint.id)) await attempt(t, d.id, 1);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual([t.adminEmail]);
    expect(mails[0].data).toContain(`Subject: Webhook endpoint disabled: ${endpoint.url}`);
    expect(mails[0].data).toContain(`/settings/webhooks/${endpoint.id}`);
    expect(mails[0].data).not.toContain('whsec_');
  });

  it('is not sent without SMTP_URL', async () => {
    const before = mails.length;
    const { t, endpoint } = await setUp();
    const { body } = await t.admin('GET', `/webhooks/${endpoint.id}`);
    expect(await sendDisabledNotice(operationContext(t.tenantId, SYSTEM_ACTOR), body)).toBe(0);
    await bookingEvents(t, 3);
    for (const d of await deliveriesOf(t, endpoint.id)) await attempt(t, d.id, 1);
    expect((await t.admin('GET', `/webhooks/${endpoint.id}`)).body.disabled_reason).toBe('failing');
    expect(mails).toHaveLength(before);
  });
});
