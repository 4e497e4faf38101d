// The periodic jobs in a long-running server with the worker engine (started from
// instrumentation.ts): one timer per job, a pass at start, never two passes of a job at once.
import { logger } from '@/server/log';
import type { PeriodicJob } from './registry';

export function runJobsLocally(jobs: PeriodicJob[]): { stop(): void } {
  const timers = jobs.map((job) => {
    let running = false;
    const pass = () => {
      if (running) return;
      running = true;
      job
        .run()
        .then((summary) => {
          if (Object.values(summary).some((n) => n > 0))
            logger().info({ job: job.name, ...summary }, 'job ran');
        })
        .catch((error) => logger().error({ err: error, job: job.name }, 'periodic job failed'))
        .finally(() => {
          running = false;
        });
    };
    pass();
    const timer = setInterval(pass, job.everyMs);
    timer.unref();
    return timer;
  });
  return { stop: () => timers.forEach(clearInterval) };
}
