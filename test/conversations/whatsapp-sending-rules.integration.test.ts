// Sending on WhatsApp against a stand-in for the Graph API: the customer service window, templates
// and media out, and Meta's 131047 and 130429 answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { forTenant } from '@/server/db/tenant-scope';
import { failInterruptedMessages } from '@/server/domain/conversations/fail-interrupted-messages';
import { RATE_LIMIT_BACKOFF_MS } from '@/server/domain/conversations/send-message';
import { sendScheduledMessages } from '@/server/domain/conversations/send-scheduled-messages';
import { hubSignature } from '@/server/whatsapp/signature';
import { givenChannel } from '../support/builders';
import { eventsOf, expectProblemCode } from '../support/domain-fixtures';
import { textMessage, whatsappPayload } from '../support/fake-graph';
import { apiSuite, fakeGraphSuite } from '../support/harness';

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

async function channelId() {
  return (await forTenant(tenant.tenantId).channel.findFirstOrThrow({ where: { phoneNumberId: number } })).id;
}
