// Outbound calls to the WhatsApp Cloud API with a channel's bearer token: sending a message (text,
// template, media or interactive: `POST {graph}/{phone_number_id}/messages`), fetching an inbound media file
// (`GET {graph}/{media_id}`, then its URL), and checking that a token can read a number
// (`GET {graph}/{phone_number_id}`). Never throws: callers record the reason.
import { settings } from '@/server/config/settings';
import type { Interactive } from './interactive';

export const GRAPH_TIMEOUT_MS = 10_000;
const MAX_REASON = 500;

export type SendResult = { ok: true; externalId: string } | { ok: false; reason: string; rateLimited?: true };

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

/** What an outbound message carries, in the Graph API's own terms. */
export type OutboundContent =
  | { type: 'text'; text: string }
  | { type: 'interactive'; interactive: Interactive }
  | { type: 'template'; template: { name: string; language: string; components?: unknown[] } }
  | {
      type: 'media';
      media: {
        type: 'image' | 'document' | 'audio' | 'video';
        link: string;
        caption?: string;
        filename?: string;
      };
    };

/** Meta's "rate limit hit" (throughput of the number): to be retried later, never a failure. */
export const RATE_LIMITED_CODES = new Set([130429, 131056, 80007]);

function graphBody(content: OutboundContent): Record<string, unknown> {
  switch (content.type) {
    case 'text':
      return { type: 'text', text: { preview_url: false, body: content.text } };
    case 'interactive':
      return { type: 'interactive', interactive: content.interactive };
    case 'template': {
      const { name, language, components } = content.template;
      return { type: 'template', template: { name, language: { code: language }, components } };
    }
    case 'media': {
      const { type, ...file } = content.media;
      return { type, [type]: file };
    }
  }
}

export async function sendWhatsAppMessage(input: {
  phoneNumberId: string;
  accessToken: string;
  to: string;
  content: OutboundContent;
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
      ...graphBody(input.content),
    },
  });
  if (!answer.ok) return answer;
  if (answer.status >= 200 && answer.status < 300) {
    const id = (answer.body as { messages?: { id?: unknown }[] } | undefined)?.messages?.[0]?.id;
    if (typeof id === 'string' && id.length > 0) return { ok: true, externalId: id };
    return { ok: false, reason: 'WhatsApp API answered without a message id' };
  }
  const code = Number((answer.body as { error?: { code?: unknown } } | undefined)?.error?.code);
  return {
    ok: false,
    reason: describeGraphError(answer.status, answer.body),
    ...(RATE_LIMITED_CODES.has(code) ? { rateLimited: true as const } : {}),
  };
}

/**
 * An inbound media file: its URL comes from `GET {graph}/{media_id}`, and the file itself needs the
 * same bearer token. Answers the open response for the caller to stream, or a reason.
 */
export async function fetchWhatsAppMedia(input: {
  mediaId: string;
  accessToken: string;
}): Promise<{ ok: true; response: Response; mimeType: string | null } | { ok: false; reason: string }> {
  const answer = await callGraph({
    method: 'GET',
    path: `/${encodeURIComponent(input.mediaId)}`,
    accessToken: input.accessToken,
  });
  if (!answer.ok) return answer;
  const info = answer.body as { url?: unknown; mime_type?: unknown } | undefined;
  if (answer.status !== 200 || typeof info?.url !== 'string')
    return { ok: false, reason: describeGraphError(answer.status, answer.body) };
  try {
    const response = await fetch(info.url, {
      headers: { Authorization: `Bearer ${input.accessToken}` },
      redirect: 'manual',
      signal: AbortSignal.timeout(GRAPH_TIMEOUT_MS),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return { ok: false, reason: `WhatsApp media download answered HTTP ${response.status}` };
    }
    return { ok: true, response, mimeType: typeof info.mime_type === 'string' ? info.mime_type : null };
  } catch (error) {
    return { ok: false, reason: `WhatsApp media unreachable: ${(error as Error).message}` };
  }
}

/**
 * Whether the access token can read this phone number (`GET {graph}/{phone_number_id}` answers 200):
 * the proof asked before a tenant may claim the number (docs/decisions.md "Security").
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
