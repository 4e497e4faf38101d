import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { disconnectDb } from '@/server/db/client';
import { closePgPool } from '@/server/db/pool';
import { TEST_ENV } from './env';

// Setup of the `integration` project: a fresh database for this test file, cloned from the migrated
// template (test/global-setup.ts).
const adminUrl = inject('pgAdminUrl');
const name = `t_${randomBytes(6).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${name} template switchboard_template`);
await admin.end();

const url = new URL(adminUrl);
url.pathname = `/${name}`;
Object.assign(process.env, TEST_ENV, { DATABASE_URL: url.toString() });

afterAll(async () => {
  await disconnectDb();
  await closePgPool();
});
