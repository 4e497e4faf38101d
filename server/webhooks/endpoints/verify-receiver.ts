// POST /webhooks/{id}/verify-receiver (docs/decisions.md, "Integrator tools"): four signed requests that tell whether
// the endpoint's receiver checks signatures and timestamps. They are not deliveries: no event, delivery
// or attempt is recorded. They leave through the deliveries' sender, with its SSRF guard, timeout
// and refusal of redirects.
import { settings } from '@/server/config/settings';
import type { OperationContext } from '@/server/domain/context';
import { newId } from '@/server/lib/ids';
import { sendWebhook } from '@/server/webhooks/attempt/send';
import { signAttempt } from '@/server/webhooks/attempt/sign';
import { generateWebhookSecret, signingSecrets } from '@/server/webhooks/secrets';
import { findEndpointOr404 } from './get-endpoint';

export const RECEIVER_CASES = ['valid', 'bad_signature', 'stale_timestamp', 'tampered_body'] as const;
export type ReceiverCase = (typeof RECEIVER_CASES)[number];

/** How old the stale case's timestamp is: twice the 5 minutes receivers should tolerate. */
const STALE_BY_MS = 10 * 60 * 1000;

export interface ReceiverCheckResult {
  case: ReceiverCase;
  expected: 'accept' | 'reject';
  status: number | null;
  ok: boolean;
  error: string | null;
}

export async function verifyReceiver(
  ctx: OperationContext,
  input: { id: string },
): Promise<{ passed: boolean; results: ReceiverCheckResult[] }> {
  const endpoint = await findEndpointOr404(ctx.db, input.id);
  const config = settings();
  const now = new Date();
  const secrets = signingSecrets(endpoint, now);

  const results = await Promise.all(
    RECEIVER_CASES.map(async (kind): Promise<ReceiverCheckResult> => {
      // One event id per case: a receiver that deduplicates by webhook-id judges each on its own.
      const eventId = newId('event');
      const body = JSON.stringify({
        id: eventId,
        type: 'webhook.test',
        created_at: now.toISOString(),
        tenant_id: ctx.tenantId,
        api_version: 'v1',
        data: {
          object: {
            endpoint_id: endpoint.id,
            message: `Receiver check (${kind}) from Switchboard: this is not an event`,
          },
        },
      });
      const signed = signAttempt({
        eventId,
        eventType: 'webhook.test',
        body,
        secrets: kind === 'bad_signature' ? [generateWebhookSecret()] : secrets,
        attempt: 1,
        now: kind === 'stale_timestamp' ? new Date(now.getTime() - STALE_BY_MS) : now,
      });
      const sent = kind === 'tampered_body' ? body.replace('"api_version":"v1"', '"api_version":"v2"') : body;
      const outcome = await sendWebhook(
        endpoint.url,
        { body: sent, headers: signed.headers },
        { timeoutMs: config.WEBHOOK_TIMEOUT_MS, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS },
      );
      const accepted = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
      const expected = kind === 'valid' ? 'accept' : 'reject';
      // Rejecting means answering with a non-2xx status; no answer at all (refused, timeout) is no verdict.
      const ok = expected === 'accept' ? accepted : outcome.status !== null && !accepted;
      return {
        case: kind,
        expected,
        status: outcome.status,
        ok,
        error: accepted ? null : outcome.error,
      };
    }),
  );
  return { passed: results.every((r) => r.ok), results };
}
