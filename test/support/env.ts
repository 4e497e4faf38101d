// The settings every test process runs with, unit or integration. DATABASE_URL is not among them:
// only integration files get one (test/support/file-setup.ts).
export const TEST_ENV = {
  NODE_ENV: 'test',
  AUTH_SECRET: 'test-auth-secret-test-auth-secret-0123456789',
  SECRETS_KEY: 'test-secrets-key-test-secrets-key-0123456789',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  // A test file drives the API with one key far faster than the default 100 requests per second now
  // that a request costs about a millisecond: the functional suites run under a limit they never
  // reach, and the rate-limit tests set the limits they test (and put these back).
  API_RATE_LIMIT_PER_SECOND: '10000',
  API_RATE_LIMIT_PER_TENANT_PER_SECOND: '30000',
  // Likewise every request of a test comes from 127.0.0.1: the booking page's per-address limits.
  PUBLIC_RATE_LIMIT_PER_SECOND: '10000',
  PUBLIC_BOOKINGS_PER_HOUR: '10000',
};
