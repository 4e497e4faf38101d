// The headers of one attempt (docs/integrators.md, "Verify every request"). Signed afresh per attempt with the Standard Webhooks
// library, so any of its verifiers accepts them; during a secret rotation the header carries one
// `v1,` signature per secret, space-separated.
import { Webhook } from 'standardwebhooks';

const USER_AGENT = 'Switchboard-Webhooks/1';

export interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

export function signAttempt(input: {
  eventId: string;
  eventType: string;
  body: string;
  secrets: string[];
  attempt: number;
  now?: Date;
}): SignedRequest {
  // Whole seconds: the signed timestamp must equal the header value exactly.
  const timestamp = new Date(Math.floor((input.now ?? new Date()).getTime() / 1000) * 1000);
  const signature = input.secrets
    .map((secret) => new Webhook(secret).sign(input.eventId, timestamp, input.body))
    .join(' ');
  return {
    body: input.body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      'webhook-id': input.eventId,
      'webhook-timestamp': String(timestamp.getTime() / 1000),
      'webhook-signature': signature,
      'X-Service-Signature': signature,
      'X-Service-Event-Type': input.eventType,
      'X-Service-Delivery-Attempt': String(input.attempt),
    },
  };
}
