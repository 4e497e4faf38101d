// CPU time spent during a measured phase, by this process (or another one by pid) and by the
// PostgreSQL server: from /proc (Linux), the server's processes being those pg_stat_activity lists
// (its backends and background processes). A process's time counts from the phase's start, or from
// its own start when it began during the phase; one that exits before the phase ends is not counted,
// so phases are read before their clients disconnect. The figures turn a throughput into CPU per
// item, which says how far a rate is from what the two cores allow.
import { readFileSync } from 'node:fs';
import pg from 'pg';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime of a process in ms, or undefined once it is gone. */
function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

async function serverPids(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity');
    return rows
      .map((r) => r.pid)
      .filter((pid) => pid !== (client as unknown as { processID: number }).processID);
  } finally {
    await client.end();
  }
}

export interface CpuSpent {
  /** CPU ms of the measured process (this one unless a pid was given). */
  processMs: number;
  /** CPU ms of the PostgreSQL server's processes. */
  databaseMs: number;
  wallMs: number;
}

/**
 * Starts measuring; `stop()` answers the CPU spent since. The process measured is this one, or the
 * processes `pids()` lists (read at the start and at the end).
 */
export async function measureCpu(
  databaseUrl: string,
  pids?: () => number[],
): Promise<{ stop(): Promise<CpuSpent> }> {
  const ownStart = process.cpuUsage();
  const snapshot = (list: number[]) => new Map(list.map((p) => [p, processCpuMs(p) ?? 0]));
  const spentSince = (before: Map<number, number>, list: number[]) =>
    list.reduce((sum, p) => sum + (processCpuMs(p) ?? 0) - (before.get(p) ?? 0), 0);
  const processBefore = pids ? snapshot(pids()) : undefined;
  const databaseBefore = snapshot(await serverPids(databaseUrl));
  const startedAt = performance.now();
  return {
    async stop() {
      const wallMs = performance.now() - startedAt;
      let processMs: number;
      if (pids && processBefore) processMs = spentSince(processBefore, pids());
      else {
        const used = process.cpuUsage(ownStart);
        processMs = (used.user + used.system) / 1000;
      }
      const databaseMs = spentSince(databaseBefore, await serverPids(databaseUrl));
      return { processMs, databaseMs, wallMs };
    },
  };
}

/**
 * What `spent` allows per second for `items` items on `cores` cores, with the process on one core
 * (Node runs the work on one thread): the lower of 1000 / process-ms-per-item and
 * cores × 1000 / (process + database + `otherMs`)-ms-per-item.
 */
export function cpuCeiling(spent: CpuSpent, items: number, cores: number, otherMs = 0): number {
  const processPer = spent.processMs / items;
  const totalPer = (spent.processMs + spent.databaseMs + otherMs) / items;
  return Math.min(1000 / processPer, (cores * 1000) / totalPer);
}
