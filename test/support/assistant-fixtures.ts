// What the assistant-session tests share: a customer writing on WhatsApp (through the real inbound
// route, signed as Meta signs it), and a session minted for their conversation through the API.
import { expect } from 'vitest';
import { forTenant } from '@/server/db/tenant-scope';
import { hubSignature } from '@/server/whatsapp/signature';
import { textMessage, whatsappPayload } from './fake-graph';
import type { Api } from './harness';
import { rememberSecret } from './log-scan';

let seq = 0;

/** A new WhatsApp number (digits, as WhatsApp's wa_id carries it). */
export function newPhone(): string {
  return `346${String(Date.now()).slice(-6)}${String(++seq).padStart(2, '0')}`;
}

/**
 * `phone` writes `text` to the channel `number` of the tenant (POST /channels/whatsapp/webhook,
 * signed with `appSecret`): their conversation, created or reopened, with the window open.
 */
export async function customerWrites(
  api: Api,
  input: {
    tenantId: string;
    number: string;
    appSecret: string;
    phone?: string;
    name?: string;
    text?: string;
  },
): Promise<{ phone: string; conversationId: string; messageId: string }> {
  const phone = input.phone ?? newPhone();
  const messageId = `wamid.IN${Date.now()}${++seq}`;
  const payload = JSON.stringify(
    whatsappPayload(input.number, {
      contacts: [{ wa_id: phone, profile: { name: input.name ?? 'Ada Customer' } }],
      messages: [textMessage(messageId, phone, input.text ?? 'Hi, can I book for Tuesday?')],
    }),
  );
  const res = await api('POST', '/channels/whatsapp/webhook', {
    rawBody: payload,
    headers: {
      'Content-Type': 'application/json',
      'X-Hub-Signature-256': hubSignature(payload, input.appSecret),
    },
  });
  expect(res.status, res.text).toBe(200);
  const conversation = await forTenant(input.tenantId).conversation.findFirstOrThrow({
    where: { contactPhone: phone },
  });
  return { phone, conversationId: conversation.id, messageId };
}

export interface MintedSession {
  id: string;
  token: string;
  conversation_id: string;
  expires_at: string;
}

/** POST /conversations/{id}/assistant-sessions with `api`'s credential; must answer 201. */
export async function mintSession(
  api: Api,
  conversationId: string,
  body: object = {},
): Promise<MintedSession> {
  const res = await api('POST', `/conversations/${conversationId}/assistant-sessions`, { body });
  expect(res.status, res.text).toBe(201);
  rememberSecret('assistant session token', res.body.token);
  return res.body;
}
