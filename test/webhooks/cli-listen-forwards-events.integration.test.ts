// `npm run cli -- listen` (docs/decisions.md "Integrator tools"): a separate process that polls the REST API and forwards the
// tenant's new events to a local URL, signed with the secret it printed; no inbound connection.
import { type ChildProcess, spawn } from 'node:child_process';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { bookingBody, givenBooking, givenPayment } from '../support/builders';
import { apiSuite } from '../support/harness';
import { startReceiver } from '../support/webhook-receiver';

const suite = apiSuite();
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

function startListener(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/main.ts', 'listen', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    /** Resolves with the printed whsec_ secret once the listener is ready. */
    secret: () =>
      new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const match = stdout.match(/whsec_[A-Za-z0-9+/=]+/);
          if (match) {
            clearInterval(timer);
            resolve(match[0]);
          } else if (child.exitCode !== null) {
            clearInterval(timer);
            reject(new Error(`listen exited ${child.exitCode}: ${stdout}${stderr}`));
          }
        }, 50);
      }),
  };
}

describe('npm run cli -- listen', () => {
  it('forwards a new booking.created, signed with the printed secret, within 2 s; Ctrl-C stops it', async () => {
    const a = suite.tenant;
    const hook = await startReceiver();
    try {
      // Recorded before it starts: never forwarded.
      await givenBooking(a.admin, 'pending', { notes: 'before' });
      const listener = startListener(['--forward-to', hook.url, '--events', 'booking.*'], {
        SWITCHBOARD_API_URL: suite.url,
        SWITCHBOARD_API_KEY: a.apiKey,
        SWITCHBOARD_TENANT_ID: a.tenantId,
      });
      const secret = await listener.secret();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

      await givenPayment(a.admin); // payment.created: not matched by booking.*
      const created = await a.admin('POST', '/bookings', { body: bookingBody({ notes: 'after' }) });
      expect(created.status).toBe(201);
      const committed = Date.now();
      const [got] = await hook.waitFor(1, 5000);
      expect(got.at - committed).toBeLessThan(2000);

      const event = new Webhook(secret).verify(got.body, {
        'webhook-id': String(got.headers['webhook-id']),
        'webhook-timestamp': String(got.headers['webhook-timestamp']),
        'webhook-signature': String(got.headers['webhook-signature']),
      }) as { id: string; type: string; data: { object: { id: string } } };
      expect(event.type).toBe('booking.created');
      expect(event.data.object.id).toBe(created.body.id);
      expect(got.headers['webhook-id']).toBe(event.id);
      expect(got.headers['x-service-event-type']).toBe('booking.created');
      // Byte for byte the envelope the API lists.
      expect(JSON.parse(got.body)).toEqual((await a.admin('GET', `/events/${event.id}`)).body);

      // Nothing else arrives: neither the earlier booking nor the payment.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(hook.received).toHaveLength(1);

      listener.child.kill('SIGINT');
      expect(await listener.exited).toBe(0);
      expect(listener.output().stderr).toContain('Stopped.');
    } finally {
      await hook.close();
    }
  });

  it('refuses bad filters and missing settings (exit 2), and a wrong key (exit 1)', async () => {
    const a = suite.tenant;
    const env = {
      SWITCHBOARD_API_URL: suite.url,
      SWITCHBOARD_API_KEY: a.apiKey,
      SWITCHBOARD_TENANT_ID: a.tenantId,
    };
    // Three processes at once: each pays tsx's start-up.
    const badFilter = startListener(['--forward-to', 'http://127.0.0.1:9/', '--events', 'bookings'], env);
    const noUrl = startListener(['--forward-to', 'http://127.0.0.1:9/'], { ...env, SWITCHBOARD_API_URL: '' });
    const wrongKey = startListener(['--forward-to', 'http://127.0.0.1:9/'], {
      ...env,
      SWITCHBOARD_API_KEY: 'sk_live_nope_nope',
    });
    expect(await badFilter.exited).toBe(2);
    expect(badFilter.output().stderr).toContain('"bookings" is not');
    expect(await noUrl.exited).toBe(2);
    expect(await wrongKey.exited).toBe(1);
    expect(wrongKey.output().stderr).toContain('401');
  });
});

describe('GET /events?after=', () => {
  it('lists the events recorded after one, oldest first, and refuses a bad id or a cursor with it', async () => {
    const t = await suite.newTenant('after');
    const first = await givenBooking(t.admin);
    await givenPayment(t.admin);
    await givenBooking(t.admin, 'confirmed');
    const all = (await t.admin('GET', '/events')).body.data as { id: string; type: string }[];
    expect(all.map((e) => e.type)).toEqual([
      'booking.confirmed',
      'booking.created',
      'payment.created',
      'booking.created',
    ]);
    const oldest = all[all.length - 1];
    expect((await t.admin('GET', `/events/${oldest.id}`)).body.data.object.id).toBe(first.id);

    const after = await t.admin('GET', `/events?after=${oldest.id}`);
    expect(after.status).toBe(200);
    expect(after.body.data.map((e: { id: string }) => e.id)).toEqual(
      all
        .slice(0, 3)
        .reverse()
        .map((e) => e.id),
    );
    expect(after.body.next_cursor).toBeNull();
    const limited = await t.admin('GET', `/events?after=${oldest.id}&limit=1&type=booking.created`);
    expect(limited.body.data.map((e: { id: string }) => e.id)).toEqual([all[1].id]);
    expect((await t.admin('GET', `/events?after=${all[0].id}`)).body.data).toEqual([]);

    expect((await t.admin('GET', '/events?after=bkg_1')).status).toBe(422);
    const page = await t.admin('GET', '/events?limit=1');
    expect((await t.admin('GET', `/events?after=${oldest.id}&cursor=${page.body.next_cursor}`)).status).toBe(
      422,
    );
  });
});
