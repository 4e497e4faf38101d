// Every setting the service reads, validated once. See README "Settings".
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

const settingsSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.string().url('DATABASE_URL must be a postgres:// URL').optional(),
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
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  DELIVERY_ENGINE: z.enum(['worker', 'inngest']).optional(),
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  INNGEST_DEV: z.string().optional(),
  WHATSAPP_APP_SECRET: z.string().optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().optional(),
  WHATSAPP_GRAPH_URL: z.string().url().default('https://graph.facebook.com/v21.0'),
  API_RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(0).default(100),
  /** Proxies in front of the server whose X-Forwarded-For entries are trusted (0: the peer is the client). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Append the logs to this file instead of writing them to stdout (read by server/log.ts). */
  LOG_FILE: z.string().min(1).optional(),
});

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
  const engine = s.DELIVERY_ENGINE ?? (s.INNGEST_EVENT_KEY || s.INNGEST_DEV ? 'inngest' : 'worker');
  return { ...s, DELIVERY_ENGINE: engine };
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
