// The Inngest engine on the production build, against a stand-in for Inngest's event API on
// loopback: a booking created through the REST API must reach Inngest as a
// `switchboard/delivery.requested` event for the subscribed endpoint within seconds, and the
// event must then count as dispatched (the outbox relay ran after commit).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cli, startProductionServer } from '@/scripts/lib/production-server';

const received: Array<{ name: string; id?: string; data: { deliveryId: string; endpointId: string } }> = [];
const fakeInngest = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    if (req.method === 'POST' && req.url?.startsWith('/e/')) {
      const parsed = JSON.parse(body);
      received.push(...(Array.isArray(parsed) ? parsed : [parsed]));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ids: received.map(() => 'x'), status: 200 }));
    } else {
      res.writeHead(404).end();
    }
  });
});
await new Promise<void>((resolve) => fakeInngest.listen(0, '127.0.0.1', resolve));
const inngestUrl = `http://127.0.0.1:${(fakeInngest.address() as AddressInfo).port}`;

const server = await startProductionServer({
  DELIVERY_ENGINE: 'inngest',
  INNGEST_EVENT_KEY: 'ci-event-key',
  INNGEST_SIGNING_KEY: 'signkey-test-0123456789abcdef',
  INNGEST_EVENT_API_BASE_URL: inngestUrl,
  INNGEST_BASE_URL: inngestUrl,
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
});
let failed = false;
try {
  const tenant = cli(server.env, [
    'tenant',
    'create',
    '--name',
    'Inngest smoke',
    '--admin-email',
    'inngest@example.test',
    '--admin-password',
    'smoke-password',
  ]);
  const headers = {
    'X-Tenant-ID': tenant.tenant_id,
    Authorization: `Bearer ${tenant.api_key}`,
    'Content-Type': 'application/json',
  };
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then(
      async (r) => ({
        status: r.status,
        body: await r.json(),
      }),
    );

  const endpoint = await post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['booking.*'] });
  if (endpoint.status !== 201) throw new Error(`POST /webhooks answered ${endpoint.status}`);
  const booking = await post('/bookings', {
    customer: { name: 'Smoke' },
    start_at: new Date(Date.now() + 86_400_000).toISOString(),
    end_at: new Date(Date.now() + 90_000_000).toISOString(),
  });
  if (booking.status !== 201) throw new Error(`POST /bookings answered ${booking.status}`);

  const deadline = Date.now() + 10_000;
  while (!received.some((e) => e.name === 'switchboard/delivery.requested') && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const sent = received.find((e) => e.name === 'switchboard/delivery.requested');
  if (!sent) throw new Error('no switchboard/delivery.requested reached the Inngest event API within 10 s');
  if (sent.data.endpointId !== endpoint.body.id)
    throw new Error(`delivery for ${sent.data.endpointId}, expected ${endpoint.body.id}`);
  const events = await fetch(`${server.url}/api/v1/events`, { headers }).then((r) => r.json());
  if (events.data[0]?.type !== 'booking.created') throw new Error('booking.created is not the newest event');
  // With INNGEST_SIGNING_KEY set and not in dev mode, the serve endpoint refuses unsigned calls.
  for (const method of ['POST', 'PUT']) {
    const unsigned = await fetch(`${server.url}/api/inngest?fnId=switchboard-deliver-webhook&stepId=step`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ event: sent, events: [sent], steps: {}, ctx: { run_id: 'r', attempt: 0 } }),
    });
    if (unsigned.status < 400)
      throw new Error(`an unsigned ${method} /api/inngest answered ${unsigned.status}`);
  }
  console.log(`inngest smoke test passed: ${sent.name} for ${sent.data.deliveryId} (event id ${sent.id})`);
} catch (error) {
  failed = true;
  console.error(`inngest smoke test failed: ${(error as Error).message}`);
} finally {
  await server.stop();
  fakeInngest.close();
}
process.exit(failed ? 1 : 0);
