// Outbound calls to the WhatsApp Cloud API with a channel's bearer token: sending a text message
// (`POST {graph}/{phone_number_id}/messages`) and checking that a token can read a number
// (`GET {graph}/{phone_number_id}`). Never throws: callers record the reason.
import { settings } from '@/server/config/settings';

export const GRAPH_TIMEOUT_MS = 10_000;
const MAX_REASON = 500;

export type SendResult = { ok: true; externalId: string } | { ok: false; reason: string };

type GraphAnswer = { ok: true; status: number; body: unknown } | { ok: false; reason: string };

/** One Graph API call; a network failure or timeout becomes a readable reason, never a throw. */
async function callGraph(input: {
  method: 'GET' | 'POST';
  path: string;
  accessToken: string;
  body?: unknown;
  timeoutMs?: number;
}): Promise<GraphAnswer> {
  const base = settings().WHATSAPP_GRAPH_URL.replace(/\/+$/, '');
  let response: Response;
  try {
    response = await fetch(`${base}${input.path}`, {
      method: input.method,
      headers: {
        Authorization: `Bearer ${input.accessToken}`,
        ...(input.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
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
  return { ok: true, status: response.status, body };
}

export async function sendWhatsAppText(input: {
  phoneNumberId: string;
  accessToken: string;
  to: string;
  text: string;
  timeoutMs?: number;
}): Promise<SendResult> {
  const answer = await callGraph({
    method: 'POST',
    path: `/${encodeURIComponent(input.phoneNumberId)}/messages`,
    accessToken: input.accessToken,
    timeoutMs: input.timeoutMs,
    body: {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: input.to,
      type: 'text',
      text: { preview_url: false, body: input.text },
    },
  });
  if (!answer.ok) return answer;
  if (answer.status >= 200 && answer.status < 300) {
    const id = (answer.body as { messages?: { id?: unknown }[] } | undefined)?.messages?.[0]?.id;
    if (typeof id === 'string' && id.length > 0) return { ok: true, externalId: id };
    return { ok: false, reason: 'WhatsApp API answered without a message id' };
  }
  return { ok: false, reason: describeGraphError(answer.status, answer.body) };
}

/**
 * Whether the access token can read this phone number (`GET {graph}/{phone_number_id}` answers 200):
 * the proof asked before a tenant may claim the number (CONTRACT §10).
 */
export async function verifyPhoneNumberAccess(input: {
  phoneNumberId: string;
  accessToken: string;
}): Promise<{ ok: true } | { ok: false; reason: string }> {
  const answer = await callGraph({
    method: 'GET',
    path: `/${encodeURIComponent(input.phoneNumberId)}`,
    accessToken: input.accessToken,
  });
  if (!answer.ok) return answer;
  if (answer.status === 200) return { ok: true };
  return { ok: false, reason: describeGraphError(answer.status, answer.body) };
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
