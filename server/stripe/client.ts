// The one place a Stripe SDK client is built. Every call to Stripe goes through `stripeClient(key)`
// with a tenant's own secret key; STRIPE_API_URL (default https://api.stripe.com) names where the SDK
// sends it, so the test suite points it at its stand-in (test/support/fake-stripe.ts).
//
// Choices, and why:
// - apiVersion is pinned to the version this SDK release is typed for. The wire format then changes
//   only when someone upgrades the SDK on purpose (and reads Stripe's changelog), never because an
//   account's default version moved in Stripe's dashboard.
// - timeout 10 s per attempt (the SDK's default is 80 s): every call runs inside an API request or a
//   webhook, and a caller should get an answer (502 payment_provider_unavailable) long before it gives up.
// - maxNetworkRetries 2: the SDK retries connection failures, 409 lock timeouts and 5xx with its
//   exponential backoff (0.5 s, then 1 s). That is safe because every POST we make carries an
//   idempotency key of our own, derived from what the call is about (see checkout.ts, refunds.ts):
//   a retry is replayed by Stripe, never performed twice. Worst case ≈ 3 × 10 s + 1.5 s.
// - telemetry off: it only reports our request latencies back to Stripe in a header.
import Stripe from 'stripe';
import { settings } from '@/server/config/settings';

/** The Stripe API version every call is made with (the one the installed SDK's types describe). */
export const STRIPE_API_VERSION = '2026-10-28.endive' satisfies Stripe.LatestApiVersion;

const STRIPE_TIMEOUT_MS = 10_000;
const STRIPE_MAX_NETWORK_RETRIES = 2;

/** host, port and protocol of STRIPE_API_URL, as the SDK takes them. */
export function stripeEndpoint(apiUrl = settings().STRIPE_API_URL) {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  } as const;
}

/** A client that acts with this secret key (a tenant's, decrypted just for the call). */
export function stripeClient(secretKey: string): Stripe {
  return new Stripe(secretKey, {
    apiVersion: STRIPE_API_VERSION,
    ...stripeEndpoint(),
    timeout: STRIPE_TIMEOUT_MS,
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    telemetry: false,
    appInfo: { name: 'Switchboard' },
  });
}
