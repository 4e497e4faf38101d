import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { cpuCeiling, measureCpu } from '@/bench/_cpu';
import { databaseUrl } from '@/server/db/client';

// The benches' CPU accounting (bench/_cpu.ts): what a phase cost this process and the database.
describe('bench CPU accounting', () => {
  it("counts this process's CPU and the database's work during a phase", async () => {
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    try {
      const cpu = await measureCpu(databaseUrl());
      // 150 ms of this process's CPU, by its own CPU clock: on a busy machine a wall-clock loop gets
      // only its share of a core.
      const started = process.cpuUsage();
      while (process.cpuUsage(started).user + process.cpuUsage(started).system < 150_000);
      // ~300 ms of the database's CPU on the client's backend, alive when the phase is read.
      await client.query(`select count(*) from generate_series(1, 3000000) s where s % 7 = 0`);
      const spent = await cpu.stop();
      expect(spent.processMs).toBeGreaterThanOrEqual(100);
      expect(spent.databaseMs).toBeGreaterThanOrEqual(50);
      expect(spent.wallMs).toBeGreaterThanOrEqual(150);
    } finally {
      await client.end();
    }
  });

  it('turns CPU per item into the rate the cores allow: the process on one core, all on all', () => {
    // 1 ms of the process and 1 ms of the database per item: one core allows 1,000/s of the process,
    // two cores 1,000/s of both; with 3 ms of the database per item, two cores allow 500/s.
    expect(cpuCeiling({ processMs: 100, databaseMs: 100, wallMs: 1 }, 100, 2)).toBe(1000);
    expect(cpuCeiling({ processMs: 100, databaseMs: 300, wallMs: 1 }, 100, 2)).toBe(500);
    expect(cpuCeiling({ processMs: 100, databaseMs: 0, wallMs: 1 }, 100, 2, 300)).toBe(500);
    expect(cpuCeiling({ processMs: 200, databaseMs: 0, wallMs: 1 }, 100, 4)).toBe(500);
  });
});
