// Connections to receivers are kept alive per origin, and a kept-alive connection the receiver
// closes just as a delivery goes out costs that delivery nothing: it is sent again on a new one.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendWebhook } from './send';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function receiver(
  handle: (req: IncomingMessage, res: ServerResponse, requestsOnSocket: number) => void,
) {
  const requestsBySocket = new Map<Socket, number>();
  const stats = { connections: 0, requests: 0 };
  const server = createServer((req, res) => {
    stats.requests++;
    const n = (requestsBySocket.get(req.socket) ?? 0) + 1;
    requestsBySocket.set(req.socket, n);
    req.resume();
    req.on('end', () => handle(req, res, n));
  });
  server.on('connection', () => {
    stats.connections++;
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, stats, server };
}

const signed = { body: '{"id":"evt_1"}', headers: { 'Content-Type': 'application/json' } };
const options = { timeoutMs: 5_000, allowPrivate: true };

describe('sendWebhook connections', () => {
  it('sends consecutive deliveries to one receiver over one kept-alive connection', async () => {
    const r = await receiver((_req, res) => res.end('ok'));
    for (let i = 0; i < 5; i++) expect((await sendWebhook(r.url, signed, options)).ok).toBe(true);
    expect(r.stats).toEqual({ connections: 1, requests: 5 });
  });

  it('sends a delivery again on a new connection when the kept-alive one is closed under it', async () => {
    // The second request on a connection finds it closed by the receiver (no answer at all).
    const r = await receiver((req, res, requestsOnSocket) => {
      if (requestsOnSocket > 1) req.socket.destroy();
      else res.end('ok');
    });
    expect((await sendWebhook(r.url, signed, options)).ok).toBe(true);
    const outcome = await sendWebhook(r.url, signed, options);
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    expect(r.stats).toEqual({ connections: 2, requests: 3 });
  });

  it('does not send again when a new connection fails: that is the attempt failing', async () => {
    const r = await receiver((req) => req.socket.destroy());
    const outcome = await sendWebhook(r.url, signed, options);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/^ECONNRESET/);
    expect(r.stats).toEqual({ connections: 1, requests: 1 });
  });
});
