import { describe, expect, it } from 'vitest';
import { parseSettings, SettingsError } from './settings';

const secrets = { AUTH_SECRET: 'a'.repeat(32), SECRETS_KEY: 'b'.repeat(32) };

function problems(env: Record<string, string>): string[] {
  try {
    parseSettings(env);
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    throw error;
  }
  return [];
}

describe('settings', () => {
  it('applies the contract defaults', () => {
    const s = parseSettings(secrets);
    expect(s.PORT).toBe(3000);
    expect(s.DATA_DIR).toBe('.data');
    expect(s.WEBHOOK_RETRY_WAITS).toEqual([1000, 5000, 25_000, 125_000, 625_000]);
    expect(s.WEBHOOK_TIMEOUT_MS).toBe(10_000);
    expect(s.WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
    expect(s.DELIVERY_ENGINE).toBe('worker');
  });

  it('chooses inngest when an Inngest key or dev flag is present, unless told otherwise', () => {
    expect(parseSettings({ ...secrets, INNGEST_EVENT_KEY: 'k' }).DELIVERY_ENGINE).toBe('inngest');
    expect(parseSettings({ ...secrets, INNGEST_DEV: '1' }).DELIVERY_ENGINE).toBe('inngest');
    expect(parseSettings({ ...secrets, INNGEST_DEV: '1', DELIVERY_ENGINE: 'worker' }).DELIVERY_ENGINE).toBe(
      'worker',
    );
  });

  it('gives one clear line per missing or weak setting', () => {
    expect(problems({})).toEqual([
      expect.stringMatching(/^AUTH_SECRET is required/),
      expect.stringMatching(/^SECRETS_KEY is required/),
    ]);
    expect(problems({ AUTH_SECRET: 'short', SECRETS_KEY: 'b'.repeat(32) })).toEqual([
      'AUTH_SECRET must be at least 32 characters (openssl rand -base64 32)',
    ]);
  });

  it('in serverless mode (VERCEL or SERVERLESS), names every missing setting and refuses the worker engine', () => {
    expect(problems({ ...secrets, VERCEL: '1' })).toEqual([
      expect.stringMatching(/^DATABASE_URL is required in serverless mode/),
      expect.stringMatching(/^AUTH_URL is required in serverless mode/),
      expect.stringMatching(/^INNGEST_EVENT_KEY is required in serverless mode/),
      expect.stringMatching(/^INNGEST_SIGNING_KEY is required in serverless mode/),
    ]);
    const complete = {
      ...secrets,
      SERVERLESS: 'true',
      DATABASE_URL: 'postgres://u:p@db.example.com:6543/app',
      AUTH_URL: 'https://switchboard.example.com',
      INNGEST_EVENT_KEY: 'e',
      INNGEST_SIGNING_KEY: 'signkey-prod-0123',
    };
    expect(parseSettings(complete)).toMatchObject({ SERVERLESS: true, DELIVERY_ENGINE: 'inngest' });
    expect(problems({ ...complete, DELIVERY_ENGINE: 'worker' })).toEqual([
      expect.stringMatching(/^DELIVERY_ENGINE must be inngest in serverless mode/),
    ]);
    expect(parseSettings(secrets).SERVERLESS).toBe(false);
  });

  it('parses and rejects retry schedules', () => {
    expect(parseSettings({ ...secrets, WEBHOOK_RETRY_WAITS: '50ms, 2s,1m' }).WEBHOOK_RETRY_WAITS).toEqual([
      50, 2000, 60_000,
    ]);
    expect(problems({ ...secrets, WEBHOOK_RETRY_WAITS: '1s,soon' })).toEqual([
      expect.stringContaining('WEBHOOK_RETRY_WAITS: "soon" is not a duration'),
    ]);
    expect(problems({ ...secrets, PORT: 'eighty' })[0]).toMatch(/^PORT/);
  });

  it('parses the webhook operations settings (README "Webhook operations") with their defaults', () => {
    const d = parseSettings(secrets);
    expect(d.WEBHOOK_DISABLE_AFTER_FAILURES).toBe(50);
    expect(d.WEBHOOK_DISABLE_AFTER).toBe(24 * 3_600_000);
    expect(d.EVENT_RETENTION_DAYS).toBe(30);
    expect(d.SMTP_URL).toBeUndefined();
    const s = parseSettings({
      ...secrets,
      WEBHOOK_DISABLE_AFTER_FAILURES: '0',
      WEBHOOK_DISABLE_AFTER: '0s',
      EVENT_RETENTION_DAYS: '0',
      SMTP_URL: 'smtp://127.0.0.1:2525',
    });
    expect(s).toMatchObject({
      WEBHOOK_DISABLE_AFTER_FAILURES: 0,
      WEBHOOK_DISABLE_AFTER: 0,
      EVENT_RETENTION_DAYS: 0,
      SMTP_URL: 'smtp://127.0.0.1:2525',
    });
    expect(parseSettings({ ...secrets, WEBHOOK_DISABLE_AFTER: '90m' }).WEBHOOK_DISABLE_AFTER).toBe(5_400_000);
    expect(problems({ ...secrets, WEBHOOK_DISABLE_AFTER: 'a day' })).toEqual([
      expect.stringContaining('WEBHOOK_DISABLE_AFTER: "a day" is not a duration'),
    ]);
    expect(problems({ ...secrets, WEBHOOK_DISABLE_AFTER_FAILURES: '-1' })[0]).toMatch(
      /^WEBHOOK_DISABLE_AFTER_FAILURES/,
    );
    expect(problems({ ...secrets, EVENT_RETENTION_DAYS: 'forever' })[0]).toMatch(/^EVENT_RETENTION_DAYS/);
    expect(problems({ ...secrets, SMTP_URL: 'http://mail.example' })[0]).toMatch(/^SMTP_URL/);
  });
  it("points the Stripe SDK at Stripe's API unless STRIPE_API_URL names another origin", () => {
    expect(parseSettings(secrets).STRIPE_API_URL).toBe('https://api.stripe.com');
    expect(parseSettings({ ...secrets, STRIPE_API_URL: 'http://127.0.0.1:12111' }).STRIPE_API_URL).toBe(
      'http://127.0.0.1:12111',
    );
    expect(problems({ ...secrets, STRIPE_API_URL: 'https://api.stripe.com/v1' })).toEqual([
      'STRIPE_API_URL must be an origin only (e.g. https://api.stripe.com), without a path',
    ]);
    expect(problems({ ...secrets, STRIPE_API_URL: 'ftp://stripe.example' })[0]).toMatch(/^STRIPE_API_URL/);
  });
});
