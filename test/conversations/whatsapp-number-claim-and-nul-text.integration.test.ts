// A WhatsApp number is claimed only with an access token the Graph API accepts; inbound text holding
// a NUL character is stored (as U+FFFD) and acknowledged, never refused.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { hubSignature } from '@/server/whatsapp/signature';
import { expectProblemCode } from '../support/domain-fixtures';
import { textMessage, whatsappPayload } from '../support/fake-graph';
import { apiSuite, fakeGraphSuite } from '../support/harness';
import { client } from '../support/helpers';

const suite = apiSuite();
const a = suite.tenant;

describe('WhatsApp: NUL in inbound text, and claiming a number (findings 4 and 9)', () => {
  const APP_SECRET = 'hardening-app-secret';
  const number = String(300_000_000 + Math.floor(Math.random() * 1e8));
  const graph = fakeGraphSuite({ WHATSAPP_APP_SECRET: APP_SECRET });

  it('refuses a number whose access token the Graph API does not accept, and claims nothing', async () => {
    graph.rejectToken('made-up-token');
    const res = await a.admin('POST', '/channels', {
      body: { type: 'whatsapp', phone_number_id: number, access_token: 'made-up-token' },
    });
    expectProblemCode(res, 422, 'channel_verification_failed');
    expect(res.body.errors[0].path).toBe('access_token');
    expect(await db().channel.count({ where: { phoneNumberId: number } })).toBe(0);
    const asked = graph.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/${number}`));
    expect(asked.map((r) => r.authorization)).toEqual(['Bearer made-up-token']);
  });

  it('claims the number with a token the Graph API accepts', async () => {
    const res = await a.admin('POST', '/channels', {
      body: { type: 'whatsapp', phone_number_id: number, access_token: 'real-token' },
    });
    expect(res.status).toBe(201);
  });

  it('stores an inbound message holding NUL (as U+FFFD) and acknowledges it with 200', async () => {
    const payload = whatsappPayload(number, {
      messages: [textMessage(`wamid.NUL${number}`, '4915100000001', 'hi\u0000there')],
    });
    const raw = JSON.stringify(payload);
    const res = await client(suite.url)('POST', '/channels/whatsapp/webhook', {
      rawBody: raw,
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': hubSignature(raw, APP_SECRET) },
    });
    expect(res.status).toBe(200);
    expect(res.body.received).toBe(1);
    const stored = await db().message.findFirst({
      where: { tenantId: a.tenantId, text: { contains: 'there' } },
    });
    expect(stored?.text).toBe('hi\uFFFDthere');
  });
});
