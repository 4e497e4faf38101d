// The settings every test process runs with, unit or integration. DATABASE_URL is not among them:
// only integration files get one (test/file-setup.ts).
export const TEST_ENV = {
  NODE_ENV: 'test',
  AUTH_SECRET: 'test-auth-secret-test-auth-secret-0123456789',
  SECRETS_KEY: 'test-secrets-key-test-secrets-key-0123456789',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
};
