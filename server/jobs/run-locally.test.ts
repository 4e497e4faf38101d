import { describe, expect, it } from 'vitest';
import { jobsFor, PERIODIC_JOBS } from './registry';
import { runJobsLocally } from './run-locally';

describe('periodic jobs', () => {
  it('run at start and then every period, never two passes of one job at once', async () => {
    let started = 0;
    let running = 0;
    let overlapped = false;
    const runner = runJobsLocally([
      {
        name: 'slow',
        cron: '* * * * *',
        everyMs: 20,
        run: async () => {
          started++;
          running++;
          if (running > 1) overlapped = true;
          await new Promise((resolve) => setTimeout(resolve, 50));
          running--;
          return { done: 1 };
        },
      },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    runner.stop();
    expect(started).toBeGreaterThanOrEqual(2);
    expect(overlapped).toBe(false);
  });

  it('are chosen by engine: the outbox sweep only where Inngest delivers', () => {
    expect(jobsFor('worker').map((j) => j.name)).toEqual([
      'fail-interrupted-messages',
      'send-scheduled-messages',
      'delete-expired-events',
      'delete-expired-idempotency-keys',
    ]);
    expect(jobsFor('inngest').map((j) => j.name)).toEqual(PERIODIC_JOBS.map((j) => j.name));
  });
});
