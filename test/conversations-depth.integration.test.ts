// README "WhatsApp in depth" against a stand-in for the Graph API: the customer service window, templates and
// media out, Meta's 131047 and 130429 answers, every inbound kind, the media route, and the timers.
import { beforeAll, describe, expect, it } from 'vitest';
import { handleDashboardApi } from '@/server/api/routes';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { recordConversationTimers } from '@/server/domain/conversations/conversation-timers';
import { failInterruptedMessages } from '@/server/domain/conversations/fail-interrupted-messages';
import { RATE_LIMIT_BACKOFF_MS } from '@/server/domain/conversations/send-message';
import { sendScheduledMessages } from '@/server/domain/conversations/send-scheduled-messages';
import { Errors } from '@/server/lib/errors';
import { hubSignature } from '@/server/whatsapp/signature';
import { givenChannel } from './builders';
import { eventsOf, expectProblemCode } from './domain-fixtures';
import { textMessage, whatsappPayload } from './fake-graph';
import { apiSuite, fakeGraphSuite } from './harness';
import { createTestTenant } from './helpers';

const APP_SECRET = 'test-whatsapp-app-secret-depth';
const TOKEN = 'token-depth-A';
const HOUR = 3_600_000;

let number: string;
let seq = 0;
const unique = (prefix: string) => `${prefix}${Date.now()}${++seq}`;

const graph = fakeGraphSuite({ WHATSAPP_APP_SECRET: APP_SECRET });
const { api, tenant } = apiSuite({ agent: true });
beforeAll(async () => {
  number = String(200_000_000 + Math.floor(Math.random() * 1e8));
  await givenChannel(tenant.admin, number, TOKEN);
});

function inbound(messages: object[], contacts?: object[]) {
  const payload = whatsappPayload(number, { messages, ...(contacts ? { contacts } : {}) });
  return api('POST', '/channels/whatsapp/webhook', {
    rawBody: JSON.stringify(payload),
    headers: {
      'Content-Type': 'application/json',
      'X-Hub-Signature-256': hubSignature(JSON.stringify(payload), APP_SECRET),
    },
  });
}

/** A contact who just wrote: their conversation, with the window open. */
async function contactWhoWrote(): Promise<{ phone: string; conversationId: string }> {
  const phone = unique('346');
  expect((await inbound([textMessage(unique('wamid.IN'), phone, 'hello')])).status).toBe(200);
  const conversation = await forTenant(tenant.tenantId).conversation.findFirstOrThrow({
    where: { contactPhone: phone },
  });
  return { phone, conversationId: conversation.id };
}

async function closeWindow(conversationId: string) {
  await forTenant(tenant.tenantId).conversation.update({
    where: { id: conversationId },
    data: { windowExpiresAt: new Date(Date.now() - 1000) },
  });
}

const sendsTo = (phone: string) =>
  graph.requests.filter((r) => r.method === 'POST' && (r.body as { to?: string })?.to === phone);

describe('the customer service window', () => {
  it('opens for 24 h from the customer’s message and shows on the conversation', async () => {
    const phone = unique('346');
    const sentAt = Math.floor(Date.now() / 1000) - 600;
    await inbound([{ ...textMessage(unique('wamid.IN'), phone, 'hi'), timestamp: String(sentAt) }]);
    const row = await forTenant(tenant.tenantId).conversation.findFirstOrThrow({
      where: { contactPhone: phone },
    });
    const res = await tenant.agent('GET', `/conversations/${row.id}`);
    expect(res.body.window_expires_at).toBe(new Date(sentAt * 1000 + 24 * HOUR).toISOString());
  });

  it('lets text through while open, and refuses text and media once closed, before calling Meta', async () => {
    const { phone, conversationId } = await contactWhoWrote();
    const open = await tenant.agent('POST', `/conversations/${conversationId}/messages`, {
      body: { text: 'Sure, 10:00 works' },
    });
    expect(open.body).toMatchObject({ status: 'sent', type: 'text', template: null, media: null });

    await closeWindow(conversationId);
    const before = sendsTo(phone).length;
    const stored = await forTenant(tenant.tenantId).message.count({ where: { conversationId } });
    for (const body of [
      { text: 'Are you there?' },
      { media: { type: 'image', link: 'https://example.com/menu.jpg' } },
    ]) {
      const res = await tenant.agent('POST', `/conversations/${conversationId}/messages`, { body });
      expectProblemCode(res, 422, 'outside_customer_service_window');
    }
    expect(sendsTo(phone).length).toBe(before);
    expect(await forTenant(tenant.tenantId).message.count({ where: { conversationId } })).toBe(stored);
  });

  it('refuses text to a WhatsApp conversation the customer never opened', async () => {
    const created = await tenant.agent('POST', '/conversations', {
      body: {
        channel: 'whatsapp',
        channel_id: (await channelId()) as string,
        contact: { phone: '+34600999888' },
      },
    });
    expect(created.body.window_expires_at).toBeNull();
    const res = await tenant.agent('POST', `/conversations/${created.body.id}/messages`, {
      body: { text: 'Hi' },
    });
    expectProblemCode(res, 422, 'outside_customer_service_window');
  });

  it('sends a template at any time, in the Graph API’s template shape', async () => {
    const { phone, conversationId } = await contactWhoWrote();
    await closeWindow(conversationId);
    const template = {
      name: 'booking_reminder',
      language: 'en_US',
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Tuesday 10:00' }] }],
    };
    const res = await tenant.agent('POST', `/conversations/${conversationId}/messages`, {
      body: { template },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'sent',
      type: 'template',
      template,
      text: '[template: booking_reminder]',
    });
    expect(sendsTo(phone).at(-1)?.body).toMatchObject({
      type: 'template',
      template: { name: 'booking_reminder', language: { code: 'en_US' }, components: template.components },
    });
  });

  it('marks a message Meta refuses with 131047 failed with the reason, and closes the window', async () => {
    const { conversationId } = await contactWhoWrote();
    graph.failFor(
      number,
      400,
      {
        error: {
          message: 'Re-engagement message',
          code: 131047,
          error_data: { details: 'More than 24 hours' },
        },
      },
      1,
    );
    const res = await tenant.agent('POST', `/conversations/${conversationId}/messages`, {
      body: { text: 'Hello?' },
    });
    expect(res.body.status).toBe('failed');
    expect(res.body.failure_reason).toContain('(#131047) Re-engagement message');
    const conversation = await tenant.agent('GET', `/conversations/${conversationId}`);
    expect(new Date(conversation.body.window_expires_at).getTime()).toBeLessThanOrEqual(Date.now());
    expect(
      await eventsOf(tenant.tenantId, { type: 'conversation.message.failed', objectId: res.body.id }),
    ).toHaveLength(1);
  });
});

describe('templates and media out', () => {
  it('sends media by link, with its caption and a document’s filename', async () => {
    const { phone, conversationId } = await contactWhoWrote();
    const media = { type: 'document', link: 'https://example.com/invoice.pdf', filename: 'invoice.pdf' };
    const res = await tenant.agent('POST', `/conversations/${conversationId}/messages`, { body: { media } });
    expect(res.body).toMatchObject({
      status: 'sent',
      type: 'document',
      media,
      text: '[document: invoice.pdf]',
    });
    expect(sendsTo(phone).at(-1)?.body).toMatchObject({
      type: 'document',
      document: { link: media.link, filename: 'invoice.pdf' },
    });
  });

  it.each([
    [{}, 'text'],
    [{ text: 'a', template: { name: 'x', language: 'en' } }, 'template'],
    [{ media: { type: 'image', link: 'http://example.com/a.jpg' } }, 'media.link'],
    [{ media: { type: 'image', link: 'https://example.com/a.jpg', filename: 'a.jpg' } }, 'media.filename'],
    [{ template: { name: 'Bad Name', language: 'en' } }, 'template.name'],
    [{ template: { name: 'ok', language: 'english' } }, 'template.language'],
  ])('refuses %j with 422 naming %s', async (body, field) => {
    const { conversationId } = await contactWhoWrote();
    const res = await tenant.agent('POST', `/conversations/${conversationId}/messages`, { body });
    expectProblemCode(res, 422, 'validation_failed');
    expect(JSON.stringify(res.body.errors)).toContain(field);
  });
});

describe("Meta's rate limit (130429)", () => {
  const rateLimited = { error: { message: '(#130429) Rate limit hit', code: 130429 } };

  it('keeps the message queued, then sends it when the backoff is over; never failed meanwhile', async () => {
    const { conversationId } = await contactWhoWrote();
    graph.failFor(number, 400, rateLimited, 1);
    const res = await tenant.agent('POST', `/conversations/${conversationId}/messages`, {
      body: { text: 'Later' },
    });
    expect(res.body.status).toBe('queued');
    const held = await forTenant(tenant.tenantId).message.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(held.sendAttempts).toBe(1);
    expect(held.nextSendAt?.getTime()).toBeGreaterThan(Date.now());

    // Not due yet: nothing is sent; and the job for interrupted sends leaves it alone, even much later.
    await sendScheduledMessages();
    expect(await failInterruptedMessages(new Date(Date.now() + 3_600_000))).toBe(0);
    await sendScheduledMessages(new Date(Date.now() + RATE_LIMIT_BACKOFF_MS[0]));
    const sent = await tenant.agent('GET', `/conversations/${conversationId}/messages`);
    expect(sent.body.data.find((m: { id: string }) => m.id === res.body.id)).toMatchObject({
      status: 'sent',
      external_id: expect.stringMatching(/^wamid\./),
    });
    expect(
      await eventsOf(tenant.tenantId, { type: 'conversation.message.failed', objectId: res.body.id }),
    ).toHaveLength(0);
    expect(
      await eventsOf(tenant.tenantId, { type: 'conversation.message.sent', objectId: res.body.id }),
    ).toHaveLength(1);
  });

  it('fails the message only after the last wait', async () => {
    const { conversationId } = await contactWhoWrote();
    graph.failFor(number, 400, rateLimited, RATE_LIMIT_BACKOFF_MS.length + 1);
    const res = await tenant.agent('POST', `/conversations/${conversationId}/messages`, {
      body: { text: 'Busy' },
    });
    let at = Date.now();
    for (const wait of RATE_LIMIT_BACKOFF_MS) {
      at += wait + 1000;
      await sendScheduledMessages(new Date(at));
    }
    const row = await forTenant(tenant.tenantId).message.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.status).toBe('failed');
    expect(row.failureReason).toContain('rate limit');
    graph.failFor(number, 400, rateLimited, 0);
  });
});

describe('inbound kinds', () => {
  it('keeps every kind with a readable text and its WhatsApp type, and media with its metadata', async () => {
    const phone = unique('347');
    const ts = String(Math.floor(Date.now() / 1000));
    const base = (type: string, extra: object) => ({
      from: phone,
      id: unique('wamid.K'),
      timestamp: ts,
      type,
      ...extra,
    });
    const kinds = [
      base('image', { image: { id: 'media-1', mime_type: 'image/jpeg', caption: 'My rash', sha256: 'x' } }),
      base('document', {
        document: { id: 'media-2', mime_type: 'application/pdf', filename: 'referral.pdf' },
      }),
      base('audio', { audio: { id: 'media-3', mime_type: 'audio/ogg; codecs=opus', voice: true } }),
      base('sticker', { sticker: { id: 'media-4', mime_type: 'image/webp', animated: false } }),
      base('location', {
        location: { latitude: 41.4, longitude: 2.17, name: 'Clinic', address: 'Main St 1' },
      }),
      base('contacts', { contacts: [{ name: { formatted_name: 'Grace Hopper' }, phones: [] }] }),
      base('reaction', { reaction: { message_id: 'wamid.X', emoji: '👍' } }),
      base('reaction', { reaction: { message_id: 'wamid.X' } }),
      base('interactive', {
        interactive: { type: 'list_reply', list_reply: { id: 'r1', title: 'Tuesday' } },
      }),
      base('button', { button: { payload: 'p', text: 'Confirm' } }),
      base('order', { order: { catalog_id: 'c', product_items: [{}, {}] } }),
      base('system', { system: { body: 'Customer changed their number' } }),
      base('unsupported', { errors: [{ code: 131051, title: 'Message type unknown' }] }),
      base('location', { location: { latitude: 'not a number' } }),
      { from: phone, type: 'text', text: { body: 'no id: cannot be stored' } },
    ];
    const res = await inbound(kinds, [{ wa_id: phone, profile: { name: 'Ada' } }]);
    expect(res.status).toBe(200);
    const rows = await forTenant(tenant.tenantId).message.findMany({
      where: { conversationId: await conversationIdOf(phone) },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => [r.type, r.text])).toEqual([
      ['image', 'My rash'],
      ['document', '[document: referral.pdf]'],
      ['audio', '[audio]'],
      ['sticker', '[sticker]'],
      ['location', '[location: Clinic, Main St 1]'],
      ['contacts', '[contacts: Grace Hopper]'],
      ['reaction', '[reaction: 👍]'],
      ['reaction', '[reaction removed]'],
      ['interactive', 'Tuesday'],
      ['button', 'Confirm'],
      ['order', '[order: 2 item(s)]'],
      ['system', 'Customer changed their number'],
      ['unsupported', '[unsupported]'],
      ['location', '[location]'],
    ]);
    expect(rows[0].media).toEqual({
      type: 'image',
      id: 'media-1',
      mime_type: 'image/jpeg',
      caption: 'My rash',
    });
    expect(rows[1].media).toEqual({
      type: 'document',
      id: 'media-2',
      mime_type: 'application/pdf',
      filename: 'referral.pdf',
    });
    expect(rows[4].media).toBeNull();
  });
});

describe('GET /conversations/{id}/messages/{message_id}/media', () => {
  async function inboundFile(type: string, file: object, bytes: Buffer, mimeType: string, length = true) {
    const phone = unique('348');
    const mediaId = unique('mid');
    graph.addMedia(mediaId, { bytes, mimeType, token: TOKEN, length });
    await inbound([
      { from: phone, id: unique('wamid.M'), type, [type]: { id: mediaId, mime_type: mimeType, ...file } },
    ]);
    const message = await forTenant(tenant.tenantId).message.findFirstOrThrow({
      where: { conversationId: await conversationIdOf(phone) },
    });
    return {
      message,
      mediaId,
      path: `/conversations/${message.conversationId}/messages/${message.id}/media`,
    };
  }

  it('streams the file from the Graph API with the channel token, which never reaches the client', async () => {
    const bytes = Buffer.from('JFIF-pretend-image-bytes-0123456789');
    const { path, mediaId } = await inboundFile('image', { caption: 'x' }, bytes, 'image/jpeg');
    const res = await tenant.agent('GET', path);
    expect(res.status).toBe(200);
    expect(res.text).toBe(bytes.toString());
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('content-disposition')).toBe('inline');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(JSON.stringify([...res.headers.entries()])).not.toContain(TOKEN);
    const lookups = graph.requests.filter((r) => r.path.endsWith(`/${mediaId}`));
    expect(lookups.map((r) => r.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
  });

  it('offers anything but images, audio and video as a download', async () => {
    const { path } = await inboundFile(
      'document',
      { filename: 'page.html' },
      Buffer.from('<script>1</script>'),
      'text/html',
    );
    const res = await tenant.agent('GET', path);
    expect(res.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''page.html");
  });

  it('answers 404 for a message without a file and 502 for a file over WHATSAPP_MEDIA_MAX_BYTES', async () => {
    const { conversationId } = await contactWhoWrote();
    const message = await forTenant(tenant.tenantId).message.findFirstOrThrow({ where: { conversationId } });
    expectProblemCode(
      await tenant.agent('GET', `/conversations/${conversationId}/messages/${message.id}/media`),
      404,
      'not_found',
    );
    process.env.WHATSAPP_MEDIA_MAX_BYTES = '10';
    resetSettingsCache();
    try {
      const big = await inboundFile('video', {}, Buffer.alloc(64, 1), 'video/mp4');
      expectProblemCode(await tenant.agent('GET', big.path), 502, 'media_unavailable');
    } finally {
      delete process.env.WHATSAPP_MEDIA_MAX_BYTES;
      resetSettingsCache();
    }
  });

  it('reaches the dashboard through the same pipeline with a session: its answers, 401, 404, 405 and 503', async () => {
    const bytes = Buffer.from('dashboard-image-bytes');
    const { path } = await inboundFile('image', { caption: 'y' }, bytes, 'image/png');
    const member = { kind: 'user' as const, tenantId: tenant.tenantId, role: 'agent' as const };
    const session = async () => ({ ...member, userId: tenant.agentUserId });
    const get = (p: string, as = session, method = 'GET') =>
      handleDashboardApi(new Request(`http://localhost/api/dashboard/v1${p}`, { method }), as);

    const ok = await get(path);
    expect([ok.status, ok.headers.get('content-type'), await ok.text()]).toEqual([
      200,
      'image/png',
      bytes.toString(),
    ]);
    expect(ok.headers.get('content-security-policy')).toContain('sandbox');
    // Another tenant's session does not find the message; a route with a tRPC twin is not here at all.
    const other = (await createTestTenant('Other')).tenantId;
    const foreign = await get(path, async () => ({ ...member, tenantId: other, userId: tenant.agentUserId }));
    expect([foreign.status, (await foreign.json()).code]).toEqual([404, 'not_found']);
    expect((await get('/bookings')).status).toBe(404);
    expect((await get(path, session, 'POST')).status).toBe(405);
    const signedOut = await get(path, async () => {
      throw Errors.unauthenticated('Sign in first');
    });
    expect([signedOut.status, (await signedOut.json()).code]).toEqual([401, 'unauthenticated']);
    // The session check needs the database: an outage answers 503 with Retry-After, as REST does.
    const down = await get(path, async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    expect([down.status, (await down.json()).code]).toEqual([503, 'service_unavailable']);
    expect(down.headers.get('retry-after')).not.toBeNull();
  });

  it('answers 502 when Meta does not hand the file over', async () => {
    const { path, message } = await inboundFile('image', {}, Buffer.from('x'), 'image/png');
    await forTenant(tenant.tenantId).message.update({
      where: { id: message.id },
      data: { media: { type: 'image', id: 'unknown-media' } },
    });
    expectProblemCode(await tenant.agent('GET', path), 502, 'media_unavailable');
  });
});

describe('timers', () => {
  it('records conversation.window.expiring once per window, WHATSAPP_WINDOW_WARNING before it closes', async () => {
    const { phone, conversationId } = await contactWhoWrote();
    const setWindow = (at: Date) =>
      forTenant(tenant.tenantId).conversation.update({
        where: { id: conversationId },
        data: { windowExpiresAt: at },
      });
    await setWindow(new Date(Date.now() + 2 * HOUR));
    await recordConversationTimers();
    const count = async () =>
      (await eventsOf(tenant.tenantId, { type: 'conversation.window.expiring', objectId: conversationId }))
        .length;
    expect(await count()).toBe(0);

    await setWindow(new Date(Date.now() + 30 * 60_000));
    await recordConversationTimers();
    await recordConversationTimers(); // a second pass, or another instance: nothing more
    expect(await count()).toBe(1);

    // The customer writes again: a new window, a new warning when it nears its end.
    await inbound([textMessage(unique('wamid.IN'), phone, 'again')]);
    await setWindow(new Date(Date.now() + 20 * 60_000));
    await Promise.all([recordConversationTimers(), recordConversationTimers()]);
    expect(await count()).toBe(2);
  });

  it('records conversation.handoff.overdue once when a hand-off waits longer than HANDOFF_SLA', async () => {
    const { conversationId } = await contactWhoWrote();
    const handoff = await tenant.admin('POST', `/conversations/${conversationId}/handoff`, {
      body: { reason: 'Wants a person' },
    });
    expect(handoff.status).toBe(200);
    await recordConversationTimers();
    const count = async () =>
      (await eventsOf(tenant.tenantId, { type: 'conversation.handoff.overdue', objectId: conversationId }))
        .length;
    expect(await count()).toBe(0);
    const later = new Date(Date.now() + 16 * 60_000);
    await Promise.all([recordConversationTimers(later), recordConversationTimers(later)]);
    await recordConversationTimers(later);
    expect(await count()).toBe(1);
  });
});

async function channelId() {
  return (await forTenant(tenant.tenantId).channel.findFirstOrThrow({ where: { phoneNumberId: number } })).id;
}

async function conversationIdOf(phone: string) {
  return (await forTenant(tenant.tenantId).conversation.findFirstOrThrow({ where: { contactPhone: phone } }))
    .id;
}
