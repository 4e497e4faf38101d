// Every setting the service reads, validated once. See docs/operations.md "Settings".
import { z } from 'zod';
import { parseDuration } from '@/server/lib/duration';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const strongSecret = (name: string) =>
  z
    .string({
      error: `${name} is required (any random text of at least 32 characters: openssl rand -base64 32)`,
    })
    .min(32, `${name} must be at least 32 characters (openssl rand -base64 32)`);

/** A duration setting such as `15m` or `1h`, in milliseconds. */
function durationSetting(name: string, fallback: string) {
  return z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      try {
        return parseDuration(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `${name}: ${(error as Error).message}` });
        return z.NEVER;
      }
    });
}

/** Delivery attempts in flight at once per tenant and per endpoint, unless the settings say otherwise. */
export const DEFAULT_IN_FLIGHT_CAPS = { perTenant: 8, perEndpoint: 5 } as const;
/** Timers of one tenant firing at once, unless TIMER_MAX_IN_FLIGHT_PER_TENANT says otherwise. */
export const DEFAULT_TIMERS_IN_FLIGHT = 4;

const settingsSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.string().url('DATABASE_URL must be a postgres:// URL').optional(),
  /** A session-mode URL for migrations and LISTEN when DATABASE_URL is a transaction-mode pooler. */
  DIRECT_URL: z.string().url('DIRECT_URL must be a postgres:// URL').optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  AUTH_SECRET: strongSecret('AUTH_SECRET'),
  /** The dashboard's public URL (sign-in callbacks; https makes the session cookie Secure). */
  AUTH_URL: z.url({ protocol: /^https?$/ }).optional(),
  SECRETS_KEY: strongSecret('SECRETS_KEY'),
  WEBHOOK_ALLOW_PRIVATE_URLS: booleanFlag,
  WEBHOOK_RETRY_WAITS: z
    .string()
    .default('1s,5s,25s,125s,625s')
    .transform((value, ctx) => {
      try {
        return value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)
          .map(parseDuration);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `WEBHOOK_RETRY_WAITS: ${(error as Error).message}` });
        return z.NEVER;
      }
    }),
  /** Consecutive failed attempts that disable an endpoint (docs/operations.md "Webhook operations"); 0 never disables. */
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(0).default(50),
  /** ...and how old the first of them must be (a duration: 24h, 30m, 0s). */
  WEBHOOK_DISABLE_AFTER: z
    .string()
    .default('24h')
    .transform((value, ctx) => {
      try {
        return parseDuration(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `WEBHOOK_DISABLE_AFTER: ${(error as Error).message}` });
        return z.NEVER;
      }
    }),
  /** Mail transport for operational notices (an endpoint disabled), e.g. smtp://user:pass@host:587; unset: none. */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'SMTP_URL must be an smtp:// or smtps:// URL' }).optional(),
  SMTP_FROM: z.string().min(3).default('Switchboard <no-reply@switchboard.invalid>'),
  /** Events (with their deliveries and attempts) older than this many days are deleted; 0 keeps everything. */
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(30),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /**
   * Delivery attempts in flight at once per tenant and per endpoint, on either engine: one tenant's
   * backlog or slow receivers can never hold every slot. Keep the tenant's below the worker's 10 slots.
   */
  WEBHOOK_MAX_IN_FLIGHT_PER_TENANT: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(DEFAULT_IN_FLIGHT_CAPS.perTenant),
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(DEFAULT_IN_FLIGHT_CAPS.perEndpoint),
  /**
   * Timers of one tenant firing at once, on either engine (the worker's claims, Inngest's per-tenant
   * concurrency key): one tenant's backlog of due holds never delays another's. Keep it below the
   * timer worker's 5 slots.
   */
  TIMER_MAX_IN_FLIGHT_PER_TENANT: z.coerce.number().int().min(1).max(1000).default(DEFAULT_TIMERS_IN_FLIGHT),
  /** Webhook endpoints and usable API keys a tenant may have (creating one more answers 409). */
  MAX_WEBHOOK_ENDPOINTS_PER_TENANT: z.coerce.number().int().min(1).max(10_000).default(50),
  MAX_API_KEYS_PER_TENANT: z.coerce.number().int().min(1).max(10_000).default(50),
  /**
   * Open holds a tenant may have: pending bookings with hold_expires_at, each a timer (creating one
   * more answers 409 hold_limit_reached).
   */
  MAX_OPEN_HOLDS_PER_TENANT: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** Who runs the background work (deliveries, timers, periodic jobs): server/runtime/README.md. */
  DELIVERY_ENGINE: z.enum(['worker', 'inngest']).optional(),
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  INNGEST_DEV: z.string().optional(),
  WHATSAPP_APP_SECRET: z.string().optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().optional(),
  WHATSAPP_GRAPH_URL: z.string().url().default('https://graph.facebook.com/v21.0'),
  /** How long before the customer service window closes conversation.window.expiring is recorded. */
  WHATSAPP_WINDOW_WARNING: durationSetting('WHATSAPP_WINDOW_WARNING', '1h'),
  /** How long a conversation may wait in the hand-off queue before conversation.handoff.overdue. */
  HANDOFF_SLA: durationSetting('HANDOFF_SLA', '15m'),
  /** How long a booking of a paid service (payment deposit or full) is held, pending, for its payment. */
  PAYMENT_HOLD: durationSetting('PAYMENT_HOLD', '30m'),
  /** How long an offer of times sent on WhatsApp can be tapped after it was sent. */
  OFFER_TTL: durationSetting('OFFER_TTL', '24h'),
  /** How long a time tapped in an offer (of a free service) is held, pending, for the customer's Confirm. */
  OFFER_HOLD: durationSetting('OFFER_HOLD', '10m'),
  /** The largest inbound media file the media route streams (WhatsApp's own limit is 100 MB). */
  WHATSAPP_MEDIA_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(100 * 1024 * 1024),
  API_RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(0).default(100),
  /** Requests per second of all of a tenant's credentials together, beside each one's own limit; 0 disables. */
  API_RATE_LIMIT_PER_TENANT_PER_SECOND: z.coerce.number().int().min(0).default(300),
  /** Requests per second one client address may make to the booking page's routes (/public/…); 0 disables. */
  PUBLIC_RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(0).default(20),
  /** Bookings one client address may make through the booking page's routes per hour; 0 disables. */
  PUBLIC_BOOKINGS_PER_HOUR: z.coerce.number().int().min(0).default(10),
  /** Where the API limit is counted: `postgres` (shared by every instance) or `memory` (per process). */
  API_RATE_LIMIT_STORE: z.enum(['postgres', 'memory']).default('postgres'),
  /** Proxies in front of the server whose X-Forwarded-For entries are trusted (0: the peer is the client). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Serverless mode: set by the platform on Vercel (`VERCEL`), or by hand (`SERVERLESS=true`). */
  VERCEL: z.string().optional(),
  SERVERLESS: booleanFlag,
  /**
   * Where the Stripe SDK sends its calls: an origin only (scheme, host, optional port). Tests point it
   * at a stand-in on loopback; in production leave it unset.
   */
  STRIPE_API_URL: z
    .url({ protocol: /^https?$/, error: 'STRIPE_API_URL must be an http:// or https:// URL' })
    .default('https://api.stripe.com')
    .refine((value) => {
      const url = new URL(value);
      return (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash && !url.username;
    }, 'STRIPE_API_URL must be an origin only (e.g. https://api.stripe.com), without a path'),
  /** Bearer token of GET /api/metrics; unset: the route answers 404. */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  /** Append the logs to this file instead of writing them to stdout (read by server/log.ts). */
  LOG_FILE: z.string().min(1).optional(),
});

/**
 * What serverless mode needs (docs/operations.md "Running it in production", docs/deploying.md): no embedded database,
 * no timers and no LISTEN, so everything the long-running server would default or do itself must
 * be configured, and deliveries must run on Inngest.
 */
const SERVERLESS_REQUIRED = [
  ['DATABASE_URL', 'a managed PostgreSQL (the pooled URL; DIRECT_URL for migrations)'],
  ['AUTH_URL', "the dashboard's public https URL"],
  ['INNGEST_EVENT_KEY', 'deliveries run on Inngest in serverless mode'],
  ['INNGEST_SIGNING_KEY', 'Inngest signs its calls to /api/inngest with it'],
] as const;

function serverlessProblems(s: z.output<typeof settingsSchema>, engine: 'worker' | 'inngest'): string[] {
  const problems: string[] = SERVERLESS_REQUIRED.filter(([name]) => !s[name]).map(
    ([name, why]) => `${name} is required in serverless mode (${why})`,
  );
  if (engine === 'worker') {
    problems.push(
      'DELIVERY_ENGINE must be inngest in serverless mode: the worker engine needs a long-running process',
    );
  }
  return problems;
}

export type Settings = Omit<z.output<typeof settingsSchema>, 'DELIVERY_ENGINE'> & {
  DELIVERY_ENGINE: 'worker' | 'inngest';
};

export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function parseSettings(env: Record<string, string | undefined>): Settings {
  // Empty strings mean "unset", as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = settingsSchema.safeParse(cleaned);
  if (!result.success) {
    throw new SettingsError(
      result.error.issues.map((issue) => {
        const key = String(issue.path[0] ?? '');
        return issue.message.startsWith(key) ? issue.message : `${key}: ${issue.message}`;
      }),
    );
  }
  const s = result.data;
  const serverless = s.SERVERLESS || Boolean(s.VERCEL);
  const engine =
    s.DELIVERY_ENGINE ?? (s.INNGEST_EVENT_KEY || s.INNGEST_DEV || serverless ? 'inngest' : 'worker');
  if (serverless) {
    const problems = serverlessProblems(s, engine);
    if (problems.length > 0) throw new SettingsError(problems);
  }
  return { ...s, SERVERLESS: serverless, DELIVERY_ENGINE: engine };
}

/** Every problem with the process's settings, one line each; empty when it may serve. */
export function settingsProblems(): string[] {
  try {
    settings();
    return [];
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    throw error;
  }
}

const cache = globalThis as unknown as { __switchboardSettings?: Settings };

/** The process settings, parsed on first use. */
export function settings(): Settings {
  cache.__switchboardSettings ??= parseSettings(process.env);
  return cache.__switchboardSettings;
}

/** For tests that change the environment between cases. */
export function resetSettingsCache(): void {
  cache.__switchboardSettings = undefined;
}
