import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { describeGraphError, sendWhatsAppMessage } from './graph-client';

let server: Server;
const answers: Record<string, { status: number; body?: string; hang?: boolean }> = {
  '/v1/ok/messages': { status: 200, body: JSON.stringify({ messages: [{ id: 'wamid.X' }] }) },
  '/v1/noid/messages': { status: 200, body: JSON.stringify({ messages: [] }) },
  '/v1/html/messages': { status: 502, body: '<html>Bad gateway</html>' },
  '/v1/slow/messages': { status: 200, hang: true },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const answer = answers[req.url ?? ''] ?? { status: 404, body: '{}' };
    req.resume();
    if (answer.hang) return; // never answers: the client must give up on its own
    res.writeHead(answer.status, { 'Content-Type': 'application/json' });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.WHATSAPP_GRAPH_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
  resetSettingsCache();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  resetSettingsCache();
});

const send = (phoneNumberId: string, timeoutMs?: number) =>
  sendWhatsAppMessage({
    phoneNumberId,
    accessToken: 't',
    to: '15551234567',
    content: { type: 'text', text: 'hi' },
    timeoutMs,
  });

describe('sendWhatsAppMessage', () => {
  it('returns the message id on success', async () => {
    expect(await send('ok')).toEqual({ ok: true, externalId: 'wamid.X' });
  });
  it('fails when the answer has no message id', async () => {
    expect(await send('noid')).toEqual({ ok: false, reason: 'WhatsApp API answered without a message id' });
  });
  it('fails with the HTTP status when the error body is not JSON', async () => {
    expect(await send('html')).toEqual({ ok: false, reason: 'HTTP 502' });
  });
  it('gives up after the timeout', async () => {
    expect(await send('slow', 100)).toEqual({ ok: false, reason: 'WhatsApp API did not answer in time' });
  });
});

describe('describeGraphError', () => {
  it("formats Meta's error object", () => {
    expect(
      describeGraphError(400, {
        error: {
          message: 'Invalid parameter',
          code: 100,
          error_data: { details: 'to is not a valid number' },
        },
      }),
    ).toBe('HTTP 400 (#100) Invalid parameter - to is not a valid number');
  });
  it('caps the length', () => {
    expect(describeGraphError(500, { error: { message: 'x'.repeat(2000) } }).length).toBe(500);
  });
});
