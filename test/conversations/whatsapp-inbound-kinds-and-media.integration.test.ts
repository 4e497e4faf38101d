// Inbound WhatsApp messages of every kind against a stand-in for the Graph API, and the media route
// that streams an inbound file to the REST API and the dashboard.
import { beforeAll, describe, expect, it } from 'vitest';
import { handleDashboardApi } from '@/server/api/routes';
import { userPrincipal } from '@/server/auth/principal';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { Errors } from '@/server/lib/errors';
import { hubSignature } from '@/server/whatsapp/signature';
import { givenChannel } from '../support/builders';
import { expectProblemCode } from '../support/domain-fixtures';
import { textMessage, whatsappPayload } from '../support/fake-graph';
import { apiSuite, fakeGraphSuite } from '../support/harness';
import { createTestTenant } from '../support/helpers';

const APP_SECRET = 'test-whatsapp-app-secret-depth';
const TOKEN = 'token-depth-A';

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
    const session = async () =>
      userPrincipal({ tenantId: tenant.tenantId, role: 'agent', userId: tenant.agentUserId });
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
    const foreign = await get(path, async () =>
      userPrincipal({ tenantId: other, role: 'agent', userId: tenant.agentUserId }),
    );
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

async function conversationIdOf(phone: string) {
  return (await forTenant(tenant.tenantId).conversation.findFirstOrThrow({ where: { contactPhone: phone } }))
    .id;
}
