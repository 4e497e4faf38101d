// The conversation timers' events, against a stand-in for the Graph API: conversation.window.expiring
// once per window, WHATSAPP_WINDOW_WARNING before it closes, and conversation.handoff.overdue once
// when a hand-off waits longer than HANDOFF_SLA.
import { beforeAll, describe, expect, it } from 'vitest';
import { forTenant } from '@/server/db/tenant-scope';
import { recordConversationTimers } from '@/server/domain/conversations/conversation-timers';
import { hubSignature } from '@/server/whatsapp/signature';
import { givenChannel } from '../support/builders';
import { eventsOf } from '../support/domain-fixtures';
import { textMessage, whatsappPayload } from '../support/fake-graph';
import { apiSuite, fakeGraphSuite } from '../support/harness';

const APP_SECRET = 'test-whatsapp-app-secret-depth';
const TOKEN = 'token-depth-A';
const HOUR = 3_600_000;

let number: string;
let seq = 0;
const unique = (prefix: string) => `${prefix}${Date.now()}${++seq}`;

fakeGraphSuite({ WHATSAPP_APP_SECRET: APP_SECRET });
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
