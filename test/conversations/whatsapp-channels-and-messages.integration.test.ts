import { beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { decryptSecret } from '@/server/security/secret-box';
import { hubSignature } from '@/server/whatsapp/signature';
import { givenChannel } from '../support/builders';
import { eventsOf, expectProblemCode } from '../support/domain-fixtures';
import { receipt, textMessage, whatsappPayload } from '../support/fake-graph';
import { apiSuite, fakeGraphSuite } from '../support/harness';

const APP_SECRET = 'test-whatsapp-app-secret';
const VERIFY_TOKEN = 'test-verify-token';

let numberA: string;
let numberB: string;

let seq = 0;
const unique = (prefix: string) => `${prefix}${Date.now()}${++seq}`;

const graph = fakeGraphSuite({ WHATSAPP_APP_SECRET: APP_SECRET, WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN });
const { api, tenant: a, other: b, newTenant } = apiSuite({ other: true, agent: true });
beforeAll(async () => {
  numberA = String(100_000_000 + Math.floor(Math.random() * 1e8));
  numberB = String(Number(numberA) + 1);
  await givenChannel(a.admin, numberA, 'token-A');
  await givenChannel(b.admin, numberB, 'token-B');
});

/** POSTs a payload to the inbound webhook as Meta would, signed unless told otherwise. */
function inbound(payload: object, options: { signature?: string | null; rawBody?: string } = {}) {
  const raw = options.rawBody ?? JSON.stringify(payload);
  const signature =
    options.signature === undefined ? hubSignature(JSON.stringify(payload), APP_SECRET) : options.signature;
  return api('POST', '/channels/whatsapp/webhook', {
    rawBody: raw,
    headers: {
      'Content-Type': 'application/json',
      ...(signature ? { 'X-Hub-Signature-256': signature } : {}),
    },
  });
}

async function conversationOf(tenantId: string, phone: string) {
  return forTenant(tenantId).conversation.findFirst({
    where: { contactPhone: phone },
    orderBy: { id: 'desc' },
  });
}

describe('channels', () => {
  it('registers a number with the token encrypted at rest and never returned', async () => {
    const t = await newTenant('C');
    const phone = String(Number(numberA) + 100);
    const res = await t.admin('POST', '/channels', {
      body: {
        type: 'whatsapp',
        phone_number_id: phone,
        access_token: 'EAAG-secret-token',
        display_name: 'Front desk',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^chn_/),
      type: 'whatsapp',
      phone_number_id: phone,
      display_name: 'Front desk',
      created_at: expect.any(String),
    });
    expect(res.text).not.toContain('EAAG-secret-token');
    const row = await forTenant(t.tenantId).channel.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.accessTokenEnc).not.toContain('EAAG-secret-token');
    expect(decryptSecret(row.accessTokenEnc as string)).toBe('EAAG-secret-token');

    const list = await t.admin('GET', '/channels');
    expect(list.body.data).toEqual([res.body]);
    expect(list.text).not.toContain('EAAG');

    expectProblemCode(await a.admin('DELETE', `/channels/${res.body.id}`), 404, 'not_found');
    expect((await t.admin('DELETE', `/channels/${res.body.id}`)).status).toBe(204);
    expect((await t.admin('GET', '/channels')).body.data).toEqual([]);
    expectProblemCode(await t.admin('DELETE', `/channels/${res.body.id}`), 404, 'not_found');
  });

  it('keeps a phone_number_id to one tenant (409)', async () => {
    const res = await a.admin('POST', '/channels', {
      body: { type: 'whatsapp', phone_number_id: numberB, access_token: 'x' },
    });
    expectProblemCode(res, 409, 'phone_number_id_taken');
  });

  it('is admin-only', async () => {
    expectProblemCode(
      await a.agent('POST', '/channels', {
        body: { type: 'whatsapp', phone_number_id: '999', access_token: 'x' },
      }),
      403,
      'forbidden',
    );
    expectProblemCode(await a.agent('GET', '/channels'), 403, 'forbidden');
    const [channel] = (await a.admin('GET', '/channels')).body.data;
    expectProblemCode(await a.agent('DELETE', `/channels/${channel.id}`), 403, 'forbidden');
  });

  it('validates the body', async () => {
    const res = await a.admin('POST', '/channels', { body: { type: 'sms', phone_number_id: 'abc' } });
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'access_token',
      'phone_number_id',
      'type',
    ]);
  });
});

describe('verification challenge', () => {
  const verify = (query: string) => api('GET', `/channels/whatsapp/webhook?${query}`);

  it('echoes hub.challenge as text when the verify token matches', async () => {
    const res = await verify(`hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('1158201444');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it.each([
    ['a wrong token', `hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`],
    ['a longer token', `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}x&hub.challenge=1`],
    ['another mode', `hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`],
    ['no token', 'hub.mode=subscribe&hub.challenge=1'],
  ])('answers 403 for %s', async (_, query) => {
    expectProblemCode(await verify(query), 403, 'forbidden');
  });
});

describe('signature', () => {
  it('accepts a correctly signed payload', async () => {
    const from = unique('1650');
    const res = await inbound(
      whatsappPayload(numberA, { messages: [textMessage(unique('wamid.'), from, 'hi')] }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: 1, duplicates: 0, receipts: 0, ignored: 0 });
  });

  it.each([
    ['missing', null],
    ['malformed', 'sha256=xyz'],
    ['made with another secret', 'other'],
    ['for an altered body', 'altered'],
  ])('refuses a signature %s with 401 and stores nothing', async (_, kind) => {
    const from = unique('1651');
    const payload = whatsappPayload(numberA, { messages: [textMessage(unique('wamid.'), from, 'hi')] });
    const raw = JSON.stringify(payload);
    const options =
      kind === 'other'
        ? { signature: hubSignature(raw, 'another-secret') }
        : kind === 'altered'
          ? { signature: hubSignature(raw, APP_SECRET), rawBody: raw.replace('"hi"', '"hI"') }
          : { signature: kind };
    const res = await inbound(payload, options);
    expectProblemCode(res, 401, 'invalid_signature');
    expect(await conversationOf(a.tenantId, from)).toBeNull();
  });

  it('answers 503 whatsapp_not_configured while no app secret is set', async () => {
    delete process.env.WHATSAPP_APP_SECRET;
    resetSettingsCache();
    try {
      const payload = whatsappPayload(numberA, {
        messages: [textMessage(unique('wamid.'), unique('1659'), 'hi')],
      });
      expectProblemCode(await inbound(payload), 503, 'whatsapp_not_configured');
    } finally {
      process.env.WHATSAPP_APP_SECRET = APP_SECRET;
      resetSettingsCache();
    }
  });

  it('checks the signature before parsing: unsigned garbage is 401, signed garbage 400', async () => {
    expectProblemCode(await inbound({}, { rawBody: '{not json', signature: null }), 401, 'invalid_signature');
    expectProblemCode(
      await inbound({}, { rawBody: '{not json', signature: hubSignature('{not json', APP_SECRET) }),
      400,
      'invalid_json',
    );
  });
});

describe('inbound messages', () => {
  it('creates the contact conversation and stores the message with its events', async () => {
    const from = unique('1652');
    const wamid = unique('wamid.IN');
    const res = await inbound(
      whatsappPayload(numberA, {
        contacts: [{ profile: { name: 'Grace Hopper' }, wa_id: from }],
        messages: [textMessage(wamid, from, 'Can I book for Tuesday?')],
      }),
    );
    expect(res.status).toBe(200);
    const conversation = await conversationOf(a.tenantId, from);
    expect(conversation).toMatchObject({
      channel: 'whatsapp',
      contactName: 'Grace Hopper',
      status: 'open',
      handledBy: 'ai',
    });
    const api = await a.agent('GET', `/conversations/${conversation?.id}`);
    const [created] = await eventsOf(a.tenantId, {
      type: 'conversation.created',
      objectId: conversation?.id,
    });
    expect(created.data.object).toMatchObject({
      id: api.body.id,
      contact: { name: 'Grace Hopper', phone: from },
      status: 'open',
    });
    const messages = await a.agent('GET', `/conversations/${conversation?.id}/messages`);
    expect(messages.body.data).toEqual([
      expect.objectContaining({
        direction: 'inbound',
        text: 'Can I book for Tuesday?',
        status: 'received',
        external_id: wamid,
      }),
    ]);
    const [received] = await eventsOf(a.tenantId, {
      type: 'conversation.message.received',
      objectId: messages.body.data[0].id,
    });
    expect(received.data.object).toEqual(messages.body.data[0]);
    // The same number in the other tenant's data: nothing.
    expect(await conversationOf(b.tenantId, from)).toBeNull();
  });

  it(
    'stores a retried message once (deduplicated by WhatsApp message id), ' + 'also when retries race',
    async () => {
      const from = unique('1653');
      const wamid = unique('wamid.DUP');
      const payload = whatsappPayload(numberA, { messages: [textMessage(wamid, from, 'once')] });
      const results = await Promise.all([inbound(payload), inbound(payload), inbound(payload)]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(results.reduce((n, r) => n + r.body.received, 0)).toBe(1);
      expect((await inbound(payload)).body).toMatchObject({ received: 0, duplicates: 1 });
      const rows = await forTenant(a.tenantId).message.findMany({ where: { externalId: wamid } });
      expect(rows).toHaveLength(1);
      expect(await forTenant(a.tenantId).conversation.count({ where: { contactPhone: from } })).toBe(1);
      const conversation = await conversationOf(a.tenantId, from);
      expect(
        await eventsOf(a.tenantId, { type: 'conversation.created', objectId: conversation?.id }),
      ).toHaveLength(1);
      expect(
        await eventsOf(a.tenantId, { type: 'conversation.message.received', objectId: rows[0].id }),
      ).toHaveLength(1);
    },
  );

  it('keeps one conversation per contact when two new messages arrive at once', async () => {
    const from = unique('1654');
    await Promise.all(
      [1, 2, 3].map((i) =>
        inbound(whatsappPayload(numberA, { messages: [textMessage(unique('wamid.P'), from, `m${i}`)] })),
      ),
    );
    expect(await forTenant(a.tenantId).conversation.count({ where: { contactPhone: from } })).toBe(1);
    const conversation = await conversationOf(a.tenantId, from);
    expect(await forTenant(a.tenantId).message.count({ where: { conversationId: conversation?.id } })).toBe(
      3,
    );
    expect(
      await eventsOf(a.tenantId, { type: 'conversation.created', objectId: conversation?.id }),
    ).toHaveLength(1);
  });

  it('reopens a resolved conversation for the AI', async () => {
    const from = unique('1655');
    await inbound(whatsappPayload(numberA, { messages: [textMessage(unique('wamid.'), from, 'first')] }));
    const conversation = await conversationOf(a.tenantId, from);
    await a.agent('POST', `/conversations/${conversation?.id}/handoff`, {
      body: { reason: 'asks for a person' },
    });
    await a.agent('POST', `/conversations/${conversation?.id}/assign`, { body: { user_id: a.agentUserId } });
    expect((await a.agent('POST', `/conversations/${conversation?.id}/resolve`)).body.status).toBe(
      'resolved',
    );
    await inbound(
      whatsappPayload(numberA, { messages: [textMessage(unique('wamid.'), from, 'one more thing')] }),
    );
    const reopened = await a.agent('GET', `/conversations/${conversation?.id}`);
    expect(reopened.body).toMatchObject({ status: 'open', handled_by: 'ai', assignee_id: null });
    expect(await forTenant(a.tenantId).conversation.count({ where: { contactPhone: from } })).toBe(1);
  });

  it('acknowledges and ignores traffic for an unregistered number', async () => {
    const from = unique('1656');
    const res = await inbound(
      whatsappPayload('000000001', { messages: [textMessage(unique('wamid.'), from, 'hello?')] }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: 0, ignored: 1 });
    expect(await conversationOf(a.tenantId, from)).toBeNull();
    expect(await conversationOf(b.tenantId, from)).toBeNull();
  });

  it('labels non-text messages', async () => {
    const from = unique('1657');
    await inbound(
      whatsappPayload(numberA, {
        messages: [
          {
            from,
            id: unique('wamid.'),
            timestamp: '1',
            type: 'image',
            image: { caption: 'my rash', id: 'media1' },
          },
          { from, id: unique('wamid.'), timestamp: '1', type: 'sticker', sticker: { id: 's' } },
        ],
      }),
    );
    const conversation = await conversationOf(a.tenantId, from);
    const texts = (await a.agent('GET', `/conversations/${conversation?.id}/messages`)).body.data.map(
      (m: { text: string }) => m.text,
    );
    expect(texts).toEqual(['[sticker]', 'my rash']);
  });
});

describe('outbound messages', () => {
  async function whatsappConversation() {
    const from = unique('1660');
    await inbound(whatsappPayload(numberA, { messages: [textMessage(unique('wamid.'), from, 'hi')] }));
    const conversation = await conversationOf(a.tenantId, from);
    return { id: conversation?.id as string, phone: from };
  }

  it("sends through the Graph API with the channel's token and records sent", async () => {
    const { id, phone } = await whatsappConversation();
    const before = graph.requests.length;
    const res = await a.agent('POST', `/conversations/${id}/messages`, {
      body: { text: 'Tuesday 10:00 works.' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      direction: 'outbound',
      status: 'sent',
      text: 'Tuesday 10:00 works.',
      conversation_id: id,
    });
    expect(res.body.external_id).toMatch(/^wamid\.OUT/);
    const sent = graph.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual({
      method: 'POST',
      path: `/v21.0/${numberA}/messages`,
      authorization: 'Bearer token-A',
      body: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: phone,
        type: 'text',
        text: { preview_url: false, body: 'Tuesday 10:00 works.' },
      },
    });
    const [event] = await eventsOf(a.tenantId, { type: 'conversation.message.sent', objectId: res.body.id });
    expect(event.data.object).toEqual(res.body);
    const listed = await a.agent('GET', `/conversations/${id}/messages?limit=1`);
    expect(listed.body.data[0]).toEqual(res.body);
  });

  it("records the provider's error as failed", async () => {
    const t = await newTenant('Failing');
    const number = String(Number(numberA) + 200);
    await givenChannel(t.admin, number);
    graph.failFor(number, 400, {
      error: {
        message: '(#131030) Recipient phone number not in allowed list',
        type: 'OAuthException',
        code: 131030,
        fbtrace_id: 'x',
      },
    });
    const from = unique('1661');
    await inbound(whatsappPayload(number, { messages: [textMessage(unique('wamid.'), from, 'hi')] }));
    const conversation = await conversationOf(t.tenantId, from);
    const res = await t.agent('POST', `/conversations/${conversation?.id}/messages`, {
      body: { text: 'hello' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'failed', external_id: null });
    expect(res.body.failure_reason).toContain('131030');
    expect(res.body.failure_reason).toContain('HTTP 400');
    const [event] = await eventsOf(t.tenantId, {
      type: 'conversation.message.failed',
      objectId: res.body.id,
    });
    expect(event.data.object).toEqual(res.body);
    expect(await eventsOf(t.tenantId, { type: 'conversation.message.sent' })).toHaveLength(0);
  });

  it('fails (never drops) a message on a conversation without a configured sender', async () => {
    const web = await a.agent('POST', '/conversations', {
      body: { channel: 'web', contact: { name: 'Visitor' } },
    });
    const res = await a.agent('POST', `/conversations/${web.body.id}/messages`, { body: { text: 'hello' } });
    expect(res.body).toMatchObject({
      status: 'failed',
      failure_reason: 'No sender is configured for web conversations',
    });
    expect(
      await eventsOf(a.tenantId, { type: 'conversation.message.failed', objectId: res.body.id }),
    ).toHaveLength(1);

    const t = await newTenant('Deleted channel');
    const number = String(Number(numberA) + 300);
    const channel = await givenChannel(t.admin, number);
    const from = unique('1662');
    await inbound(whatsappPayload(number, { messages: [textMessage(unique('wamid.'), from, 'hi')] }));
    const conversation = await conversationOf(t.tenantId, from);
    await t.admin('DELETE', `/channels/${channel.id}`);
    const before = graph.requests.length;
    const failed = await t.agent('POST', `/conversations/${conversation?.id}/messages`, {
      body: { text: 'still there?' },
    });
    expect(failed.body).toMatchObject({
      status: 'failed',
      failure_reason: 'No WhatsApp channel is configured for this conversation',
    });
    expect(graph.requests.length).toBe(before);
  });

  it('fails with a reason when the Graph API is unreachable', async () => {
    const { id } = await whatsappConversation();
    process.env.WHATSAPP_GRAPH_URL = 'http://127.0.0.1:9/v21.0';
    resetSettingsCache();
    try {
      const res = await a.agent('POST', `/conversations/${id}/messages`, { body: { text: 'anyone?' } });
      expect(res.body.status).toBe('failed');
      expect(res.body.failure_reason).toMatch(/unreachable/);
    } finally {
      process.env.WHATSAPP_GRAPH_URL = graph.url;
      resetSettingsCache();
    }
  });
});

describe('status receipts', () => {
  async function sentMessage() {
    const from = unique('1670');
    await inbound(whatsappPayload(numberA, { messages: [textMessage(unique('wamid.'), from, 'hi')] }));
    const conversation = await conversationOf(a.tenantId, from);
    const res = await a.agent('POST', `/conversations/${conversation?.id}/messages`, {
      body: { text: 'reply' },
    });
    expect(res.body.status).toBe('sent');
    return res.body as { id: string; external_id: string; conversation_id: string };
  }
  const statusOf = async (id: string) =>
    (await forTenant(a.tenantId).message.findUniqueOrThrow({ where: { id } })).status;
  const receiptEvents = async (id: string) =>
    (await eventsOf(a.tenantId, { objectId: id })).map((e) => e.type).filter((t) => !t.endsWith('.sent'));

  it('moves forward: delivered then read, each with its event carrying the message', async () => {
    const message = await sentMessage();
    expect(
      (await inbound(whatsappPayload(numberA, { statuses: [receipt(message.external_id, 'delivered')] })))
        .body.receipts,
    ).toBe(1);
    expect(await statusOf(message.id)).toBe('delivered');
    await inbound(whatsappPayload(numberA, { statuses: [receipt(message.external_id, 'read')] }));
    expect(await statusOf(message.id)).toBe('read');
    const events = await eventsOf(a.tenantId, { objectId: message.id });
    expect(events.map((e) => [e.type, e.data.object.status])).toEqual([
      ['conversation.message.sent', 'sent'],
      ['conversation.message.delivered', 'delivered'],
      ['conversation.message.read', 'read'],
    ]);
  });

  it(
    'ignores a late delivered after read, a repeated read and a failed after read: ' + 'no change, no event',
    async () => {
      const message = await sentMessage();
      await inbound(whatsappPayload(numberA, { statuses: [receipt(message.external_id, 'read')] }));
      for (const status of ['delivered', 'read', 'sent', 'failed']) {
        const res = await inbound(
          whatsappPayload(numberA, { statuses: [receipt(message.external_id, status)] }),
        );
        expect(res.body).toMatchObject({ receipts: 0, ignored: 1 });
      }
      expect(await statusOf(message.id)).toBe('read');
      expect(await receiptEvents(message.id)).toEqual(['conversation.message.read']);
    },
  );

  it('treats failed as final and keeps the provider reason', async () => {
    const message = await sentMessage();
    await inbound(
      whatsappPayload(numberA, {
        statuses: [
          receipt(message.external_id, 'failed', {
            errors: [
              {
                code: 131047,
                title: 'Re-engagement message',
                error_data: { details: 'More than 24 hours have passed' },
              },
            ],
          }),
        ],
      }),
    );
    const row = await forTenant(a.tenantId).message.findUniqueOrThrow({ where: { id: message.id } });
    expect(row.status).toBe('failed');
    expect(row.failureReason).toBe('(#131047) Re-engagement message More than 24 hours have passed');
    await inbound(
      whatsappPayload(numberA, {
        statuses: [receipt(message.external_id, 'delivered'), receipt(message.external_id, 'read')],
      }),
    );
    expect(await statusOf(message.id)).toBe('failed');
    expect(await receiptEvents(message.id)).toEqual(['conversation.message.failed']);
  });

  it("does not let a number's receipts touch another tenant's messages", async () => {
    const message = await sentMessage();
    const res = await inbound(
      whatsappPayload(numberB, { statuses: [receipt(message.external_id, 'delivered')] }),
    );
    expect(res.body).toMatchObject({ receipts: 0, ignored: 1 });
    expect(await statusOf(message.id)).toBe('sent');
  });
});
