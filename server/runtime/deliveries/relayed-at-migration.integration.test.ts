import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, migrationsDir, readMigrations } from '@/server/db/migrate';

// The migration that moved "handed to Inngest" from events.dispatched_at to deliveries.relayed_at,
// run on a database holding rows written before it: each delivery keeps its meaning, so the relay
// sends exactly what it would have sent before (and nothing twice).
const MIGRATION = '20261125124206_engine_neutral_hand_over';
const directUrl = (process.env.DIRECT_URL || process.env.DATABASE_URL) as string;
const admin = new pg.Client({ connectionString: directUrl });
let name: string;
let url: string;
beforeAll(async () => {
  await admin.connect();
  name = `m_${Math.random().toString(36).slice(2, 10)}`;
  await admin.query(`create database ${name}`);
  const u = new URL(directUrl);
  u.pathname = `/${name}`;
  url = u.toString();
});
afterAll(async () => {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

const TENANT = '00000000-0000-4000-8000-000000000001';

describe(`migration ${MIGRATION}`, () => {
  it('marks the deliveries of dispatched events relayed, and leaves the rest for the relay', async () => {
    // Every migration before this one, then rows as the old code wrote them.
    const names = readMigrations().map((m) => m.name);
    expect(names).toContain(MIGRATION);
    const before = mkdtempSync(path.join(tmpdir(), 'migrations-before-'));
    for (const m of names.slice(0, names.indexOf(MIGRATION))) {
      cpSync(path.join(migrationsDir(), m), path.join(before, m), { recursive: true });
    }
    await applyMigrations(url, before);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const dispatchedAt = '2026-11-20T10:00:00.000Z';
      await client.query(`insert into tenants (id, name) values ($1, 'old rows')`, [TENANT]);
      await client.query(
        `insert into webhook_endpoints (id, tenant_id, url, events, secret_enc, updated_at)
         values ('whe_1', $1, 'https://hooks.example.test/1', array['*'], 'v1.not-a-secret', now())`,
        [TENANT],
      );
      // evt_a: dispatched (the worker engine, or relayed already); evt_b: committed, not yet relayed;
      // evt_c: re-opened by a recovery (its delivery's new round not yet relayed).
      await client.query(
        `insert into events (id, tenant_id, type, payload, dispatched_at) values
           ('evt_a', $1, 'booking.created', '{}', $2), ('evt_b', $1, 'booking.created', '{}', null),
           ('evt_c', $1, 'booking.created', '{}', null)`,
        [TENANT, dispatchedAt],
      );
      await client.query(
        `insert into deliveries (id, tenant_id, event_id, event_type, endpoint_id, status, attempt_count,
           attempt_base, next_attempt_at) values
           ('dlv_a', $1, 'evt_a', 'booking.created', 'whe_1', 'succeeded', 1, 0, null),
           ('dlv_b', $1, 'evt_b', 'booking.created', 'whe_1', 'pending', 0, 0, now()),
           ('dlv_c', $1, 'evt_c', 'booking.created', 'whe_1', 'pending', 6, 6, now())`,
        [TENANT],
      );

      expect((await applyMigrations(url)).applied).toEqual(names.slice(names.indexOf(MIGRATION)));

      const { rows } = await client.query<{ id: string; relayed_at: Date | null }>(
        'select id, relayed_at from deliveries order by id',
      );
      expect(rows).toEqual([
        { id: 'dlv_a', relayed_at: new Date(dispatchedAt) },
        { id: 'dlv_b', relayed_at: null },
        { id: 'dlv_c', relayed_at: null },
      ]);
      const columns = await client.query(
        `select column_name from information_schema.columns where table_name = 'events' and column_name = 'dispatched_at'`,
      );
      expect(columns.rows).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
