// What the booking-inside-WhatsApp tests share: a customer writing and tapping through the signed
// inbound route (Meta's payload shapes: `interactive.list_reply`, `interactive.button_reply`, a
// template's quick reply as `type: "button"`), and what the stand-in Graph API received for them.
import { expect } from 'vitest';
import { forTenant } from '@/server/db/tenant-scope';
import { hubSignature } from '@/server/whatsapp/signature';
import { eventually, everyDay, givenResource, givenService } from './booking-fixtures';
import { type FakeGraph, type GraphRequest, textMessage, whatsappPayload } from './fake-graph';
import type { Api, SuiteTenant } from './harness';

/** A tap is answered within this (contract: 5 s). */
export const TAP_ANSWERED_WITHIN_MS = 5_000;

let seq = 0;
export const unique = (prefix: string) => `${prefix}${Date.now()}${++seq}`;
const now = () => String(Math.floor(Date.now() / 1000));

export const listReply = (wamid: string, from: string, id: string) => ({
  from,
  id: wamid,
  timestamp: now(),
  type: 'interactive',
  interactive: { type: 'list_reply', list_reply: { id, title: 'a time', description: '' } },
});
export const buttonReply = (wamid: string, from: string, id: string, title: string) => ({
  from,
  id: wamid,
  timestamp: now(),
  type: 'interactive',
  interactive: { type: 'button_reply', button_reply: { id, title } },
});
/** A template's quick-reply button, tapped. */
export const quickReply = (wamid: string, from: string, payload: string, text: string) => ({
  from,
  id: wamid,
  timestamp: now(),
  type: 'button',
  button: { payload, text },
});

export const interactiveOf = (r: GraphRequest) =>
  (r.body as { interactive?: Record<string, unknown> & { type: string } }).interactive;
export const textOf = (r: GraphRequest) => (r.body as { text?: { body: string } }).text?.body ?? '';
/** The ids and titles of a reply-button message. */
export const buttonsOf = (r: GraphRequest) =>
  (
    interactiveOf(r) as unknown as { action: { buttons: Array<{ reply: { id: string; title: string } }> } }
  ).action.buttons.map((b) => b.reply);

export function whatsappBooking(input: {
  api: Api;
  tenant: SuiteTenant;
  graph: FakeGraph;
  number: () => string;
  appSecret: string;
}) {
  const { api, tenant, graph } = input;
  const post = (payload: string) =>
    api('POST', '/channels/whatsapp/webhook', {
      rawBody: payload,
      headers: {
        'Content-Type': 'application/json',
        'X-Hub-Signature-256': hubSignature(payload, input.appSecret),
      },
    });
  const sendsTo = (phone: string) =>
    graph.requests.filter((r) => r.method === 'POST' && (r.body as { to?: string })?.to === phone);
  return {
    /** Inbound messages from WhatsApp, signed as Meta signs them. */
    inbound: (messages: object[]) => post(JSON.stringify(whatsappPayload(input.number(), { messages }))),
    /** A contact who just wrote (the window is open), with their conversation. */
    async contact(name = 'Marta'): Promise<{ phone: string; conversationId: string }> {
      // A WhatsApp id as Meta sends it: the international number's digits (here Spain's +34 6…).
      const phone = `346${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}`;
      const message = textMessage(unique('wamid.IN'), phone, 'I would like an appointment');
      const res = await post(
        JSON.stringify(
          whatsappPayload(input.number(), {
            messages: [message],
            contacts: [{ wa_id: phone, profile: { name } }],
          }),
        ),
      );
      expect(res.status).toBe(200);
      const row = await forTenant(tenant.tenantId).conversation.findFirstOrThrow({
        where: { contactPhone: phone },
      });
      return { phone, conversationId: row.id };
    },
    sendsTo,
    /** The sends to `phone` after the first `after` of them, once there are `count` more. */
    nextSends: (phone: string, after: number, count = 1, ms = TAP_ANSWERED_WITHIN_MS) =>
      eventually(async () => {
        const sent = sendsTo(phone).slice(after);
        expect(sent.length).toBeGreaterThanOrEqual(count);
        return sent;
      }, ms),
    /** A 30-minute service of one resource working 09:00–13:00 in Madrid every day. */
    async freeService(overrides: Record<string, unknown> = {}) {
      const resource = await givenResource(tenant.admin, {
        name: 'Dr. Lin',
        time_zone: 'Europe/Madrid',
        weekly_hours: everyDay([{ start: '09:00', end: '13:00' }]),
      });
      return givenService(tenant.admin, [resource.id], {
        name: 'Check-up',
        duration_minutes: 30,
        ...overrides,
      });
    },
    bookingsOf: (conversationId: string) =>
      forTenant(tenant.tenantId).booking.findMany({ where: { conversationId }, orderBy: { id: 'asc' } }),
  };
}
