// Payment providers a tenant connects (today: Stripe), as PUT/GET /payment-providers take and answer them.
import { z } from 'zod';
import { Timestamp } from '@/server/lib/schemas';

export const ConnectStripeInput = z
  .object({
    secret_key: z
      .string()
      .trim()
      .max(255)
      .regex(
        /^(sk|rk)_(test|live)_[0-9A-Za-z]{8,}$/,
        'A Stripe secret key (sk_test_…, sk_live_…) or restricted key (rk_…); a publishable key (pk_…) cannot act on the account',
      )
      .meta({ description: 'Secret (or restricted) API key of the Stripe account; write-only' }),
    webhook_secret: z
      .string()
      .trim()
      .max(255)
      .regex(/^whsec_[0-9A-Za-z+/=_-]{8,}$/, 'The signing secret of the Stripe webhook endpoint (whsec_…)')
      .meta({
        description:
          "Signing secret of the Stripe webhook endpoint that points at this tenant's webhook_url; write-only",
      }),
  })
  .meta({
    example: { secret_key: 'sk_test_51PqR5sTuVwXyZ0123456789', webhook_secret: 'whsec_9f8e7d6c5b4a39281706' },
  });
export type ConnectStripeInput = z.output<typeof ConnectStripeInput>;

export const PaymentProviderConnection = z
  .object({
    provider: z.literal('stripe'),
    account_id: z.string().meta({ description: 'The Stripe account the secret key belongs to' }),
    livemode: z.boolean().meta({ description: 'false for test-mode keys (sk_test_…, rk_test_…)' }),
    webhook_url: z.url().meta({
      description:
        "This tenant's inbound URL: add it in Stripe (Developers > Webhooks) as the endpoint of the events listed in the integrator guide",
    }),
    secret_key_last4: z.string().meta({ description: 'The last 4 characters of the secret key (a hint)' }),
    webhook_secret_last4: z
      .string()
      .meta({ description: 'The last 4 characters of the signing secret (a hint)' }),
    connected_at: Timestamp,
  })
  .meta({
    example: {
      provider: 'stripe',
      account_id: 'acct_1PqR5sTuVwXyZ012',
      livemode: false,
      webhook_url:
        'https://switchboard.example.com/api/v1/payment-providers/stripe/webhook/9b2d6c1e-3f4a-4b5c-8d7e-6f5a4b3c2d1e',
      secret_key_last4: '6789',
      webhook_secret_last4: '1706',
      connected_at: '2026-01-20T09:00:00.000Z',
    },
  });
export type PaymentProviderConnection = z.output<typeof PaymentProviderConnection>;

export const PaymentProviderList = z.object({
  data: z
    .array(PaymentProviderConnection)
    .meta({ description: 'The connected providers (none: an empty list)' }),
  stripe_webhook_url: z.url().meta({
    description:
      "This tenant's inbound URL for Stripe's events, also before Stripe is connected: create the Stripe " +
      'webhook endpoint with it first, then connect (PUT /payment-providers/stripe) with its signing secret',
    example:
      'https://switchboard.example.com/api/v1/payment-providers/stripe/webhook/9b2d6c1e-3f4a-4b5c-8d7e-6f5a4b3c2d1e',
  }),
});

export const STRIPE_WEBHOOK_OUTCOMES = ['applied', 'no_change', 'deferred', 'ignored', 'duplicate'] as const;
export type StripeWebhookOutcome = (typeof STRIPE_WEBHOOK_OUTCOMES)[number];

export const StripeWebhookAck = z
  .object({
    received: z.literal(true),
    outcome: z.enum(STRIPE_WEBHOOK_OUTCOMES).meta({
      description:
        'applied: a payment changed; no_change: about a known payment, already in that state; deferred: a ' +
        'refund that waits for its payment to complete; ignored: not about a payment of this tenant, or a type ' +
        'the service does not follow; duplicate: this event id was already received',
    }),
  })
  .meta({ example: { received: true, outcome: 'applied' } });
