import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { disconnectDb } from '@/server/db/client';
import { closePgPool } from '@/server/db/pool';

// A fresh database for this test file, cloned from the migrated template.
const adminUrl = inject('pgAdminUrl');
const name = `t_${randomBytes(6).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${name} template switchboard_template`);
await admin.end();

const url = new URL(adminUrl);
url.pathname = `/${name}`;
Object.assign(process.env, {
  NODE_ENV: 'test',
  DATABASE_URL: url.toString(),
  AUTH_SECRET: 'test-auth-secret-test-auth-secret-0123456789',
  SECRETS_KEY: 'test-secrets-key-test-secrets-key-0123456789',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
});

afterAll(async () => {
  await disconnectDb();
  await closePgPool();
});
