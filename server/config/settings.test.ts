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

  it('parses and rejects retry schedules', () => {
    expect(parseSettings({ ...secrets, WEBHOOK_RETRY_WAITS: '50ms, 2s,1m' }).WEBHOOK_RETRY_WAITS).toEqual([
      50, 2000, 60_000,
    ]);
    expect(problems({ ...secrets, WEBHOOK_RETRY_WAITS: '1s,soon' })).toEqual([
      expect.stringContaining('WEBHOOK_RETRY_WAITS: "soon" is not a duration'),
    ]);
    expect(problems({ ...secrets, PORT: 'eighty' })[0]).toMatch(/^PORT/);
  });
});
