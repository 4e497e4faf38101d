// The one outbound call to the WhatsApp Cloud API: a text message, `POST
// {graph}/{phone_number_id}/messages` with the channel's bearer token. Never throws: the caller
// records `sent` or `failed` with the reason.
import { settings } from '@/server/config/settings';

export const GRAPH_TIMEOUT_MS = 10_000;
const MAX_REASON = 500;

export type SendResult = { ok: true; externalId: string } | { ok: false; reason: string };

export async function sendWhatsAppText(input: {
  phoneNumberId: string;
  accessToken: string;
  to: string;
  text: string;
  timeoutMs?: number;
}): Promise<SendResult> {
  const base = settings().WHATSAPP_GRAPH_URL.replace(/\/+$/, '');
  const url = `${base}/${encodeURIComponent(input.phoneNumberId)}/messages`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${input.accessToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: input.to,
        type: 'text',
        text: { preview_url: false, body: input.text },
      }),
      redirect: 'manual',
      signal: AbortSignal.timeout(input.timeoutMs ?? GRAPH_TIMEOUT_MS),
    });
  } catch (error) {
    const name = (error as Error).name;
    const reason =
      name === 'TimeoutError'
        ? 'WhatsApp API did not answer in time'
        : `WhatsApp API unreachable: ${(error as Error).message}`;
    return { ok: false, reason };
  }
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.ok) {
    const id = (body as { messages?: { id?: unknown }[] } | undefined)?.messages?.[0]?.id;
    if (typeof id === 'string' && id.length > 0) return { ok: true, externalId: id };
    return { ok: false, reason: 'WhatsApp API answered without a message id' };
  }
  return { ok: false, reason: describeGraphError(response.status, body) };
}

/** `(#131030) Recipient phone number not in allowed list` style, as Meta's own tools print it. */
export function describeGraphError(status: number, body: unknown): string {
  const error = (
    body as { error?: { message?: unknown; code?: unknown; error_data?: { details?: unknown } } } | undefined
  )?.error;
  const parts = [`HTTP ${status}`];
  if (error?.code !== undefined) parts.push(`(#${String(error.code)})`);
  if (typeof error?.message === 'string') parts.push(error.message);
  if (typeof error?.error_data?.details === 'string') parts.push(`- ${error.error_data.details}`);
  return parts.join(' ').slice(0, MAX_REASON);
}
