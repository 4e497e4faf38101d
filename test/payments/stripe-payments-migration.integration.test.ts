// The stripe_payments migration on a database that already holds payments: `provider` was free text
// set by callers, and refunds were whole. Every existing payment was a hand-recorded entry, so it
// becomes `manual` (its reference kept), and a refunded one has refunded its whole amount.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyMigrations, migrationsDir, readMigrations } from '@/server/db/migrate';

const directUrl = (process.env.DIRECT_URL || process.env.DATABASE_URL) as string;
const admin = new pg.Client({ connectionString: directUrl });
const name = `m_stripe_${Math.random().toString(36).slice(2, 10)}`;
beforeAll(async () => {
  await admin.connect();
  await admin.query(`create database ${name}`);
});
afterAll(async () => {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

it('makes every existing payment manual, keeps its reference, and records whole refunds', async () => {
  const url = new URL(directUrl);
  url.pathname = `/${name}`;
  const all = readMigrations().map((m) => m.name);
  const mine = all.findIndex((m) => m.endsWith('_stripe_payments'));
  expect(mine).toBeGreaterThan(0);
  const before = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  for (const m of all.slice(0, mine))
    cpSync(path.join(migrationsDir(), m), path.join(before, m), { recursive: true });
  await applyMigrations(url.toString(), before);

  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const tenant = '9b2d6c1e-3f4a-4b5c-8d7e-6f5a4b3c2d1e';
    await client.query(
      `insert into payments (id, tenant_id, amount, currency, status, provider, provider_ref) values
         ('pay_1', $1, 4500, 'EUR', 'succeeded', 'stripe', 'pi_123'),
         ('pay_2', $1, 1200, 'USD', 'refunded', 'paypal', null),
         ('pay_3', $1, 700, 'EUR', 'pending', 'manual', 'transfer-9')`,
      [tenant],
    );
    expect((await applyMigrations(url.toString())).applied).toEqual(all.slice(mine));
    const { rows } = await client.query(
      'select id, provider::text, provider_ref, status::text, refunded_amount, checkout_url from payments order by id',
    );
    expect(rows).toEqual([
      {
        id: 'pay_1',
        provider: 'manual',
        provider_ref: 'pi_123',
        status: 'succeeded',
        refunded_amount: 0,
        checkout_url: null,
      },
      {
        id: 'pay_2',
        provider: 'manual',
        provider_ref: null,
        status: 'refunded',
        refunded_amount: 1200,
        checkout_url: null,
      },
      {
        id: 'pay_3',
        provider: 'manual',
        provider_ref: 'transfer-9',
        status: 'pending',
        refunded_amount: 0,
        checkout_url: null,
      },
    ]);
    const fresh = await client.query(
      "insert into payments (id, tenant_id, amount, currency) values ('pay_4', $1, 1, 'EUR') returning provider::text",
      [tenant],
    );
    expect(fresh.rows[0].provider).toBe('manual');
  } finally {
    await client.end();
  }
});
