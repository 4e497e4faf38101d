import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, expect, inject } from 'vitest';
import { disconnectDb } from '@/server/db/client';
import { closePgPool } from '@/server/db/pool';
import { TEST_ENV } from './env';
import { describeVerdict, takeUnclaimedFailures, writeCoverage } from './openapi-ledger';

// Setup of the `integration` project: a fresh database for this test file, cloned from the migrated
// template (test/support/global-setup.ts).
const adminUrl = inject('pgAdminUrl');
const name = `t_${randomBytes(6).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${name} template switchboard_template`);
await admin.end();

const url = new URL(adminUrl);
url.pathname = `/${name}`;
Object.assign(process.env, TEST_ENV, { DATABASE_URL: url.toString() });
const pooledAdminUrl = inject('pgPooledAdminUrl');
if (pooledAdminUrl) {
  const pooled = new URL(pooledAdminUrl);
  pooled.pathname = `/${name}`;
  Object.assign(process.env, { DATABASE_URL: pooled.toString(), DIRECT_URL: url.toString() });
}

// Logs at `debug` to a file of this test file's own, scanned for secrets when the run ends
// (test/support/log-scan.ts). With TEST_LOG_LEVEL set, logs go to stdout at that level instead, unscanned.
if (!process.env.TEST_LOG_LEVEL) {
  const testFile = path.basename(expect.getState().testPath ?? 'unknown', '.integration.test.ts');
  process.env.LOG_FILE = path.join(inject('logDir'), `${testFile}.${name}.log`);
  process.env.LOG_LEVEL = 'debug';
}

// OpenAPI conformance (test/openapi-ledger.ts): an exchange that no client claimed and that does not
// match the document (a bare fetch, an SDK's client, a stand-in's callback) fails the test it ran in.
const failIfUnclaimedDrift = () => {
  const failures = takeUnclaimedFailures();
  if (failures.length > 0) {
    throw new Error(
      `${failures.length} exchange(s) that do not match the OpenAPI document:\n` +
        failures.map(describeVerdict).join('\n'),
    );
  }
};
afterEach(failIfUnclaimedDrift);

afterAll(async () => {
  failIfUnclaimedDrift();
  writeCoverage(inject('logDir'), `${path.basename(expect.getState().testPath ?? 'unknown')}.${name}`);
  await disconnectDb();
  await closePgPool();
});
