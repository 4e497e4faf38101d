import { describe, expect, it } from 'vitest';
import { startPeriodicJobs } from './periodic';

describe('periodic jobs', () => {
  it('run at start and then every period, never two passes of one job at once', async () => {
    let started = 0;
    let running = 0;
    let overlapped = false;
    const runner = startPeriodicJobs([
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
    await runner.stop();
    expect(started).toBeGreaterThanOrEqual(2);
    expect(overlapped).toBe(false);
  });

  it('stop() waits for the pass under way and starts no other', async () => {
    let finished = 0;
    let started = 0;
    const runner = startPeriodicJobs([
      {
        name: 'slow',
        cron: '* * * * *',
        everyMs: 10,
        run: async () => {
          started++;
          await new Promise((resolve) => setTimeout(resolve, 100));
          finished++;
          return {};
        },
      },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await runner.stop();
    expect(finished).toBe(started);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toBe(finished);
  });
});
