// The periodic jobs (./jobs.ts) on the worker engine: one local timer per job, a pass at start,
// never two passes of a job at once. stop() ends the timers and waits for the passes under way.
import { logger } from '@/server/log';
import type { PeriodicJob } from './jobs';

export function startPeriodicJobs(jobs: PeriodicJob[]): { stop(): Promise<void> } {
  const passes = new Set<Promise<void>>();
  const timers = jobs.map((job) => {
    let running = false;
    const pass = () => {
      if (running) return;
      running = true;
      const done = job
        .run()
        .then((summary) => {
          if (Object.values(summary).some((n) => n > 0))
            logger().info({ job: job.name, ...summary }, 'job ran');
        })
        .catch((error) => logger().error({ err: error, job: job.name }, 'periodic job failed'))
        .finally(() => {
          running = false;
          passes.delete(done);
        });
      passes.add(done);
    };
    pass();
    const timer = setInterval(pass, job.everyMs);
    timer.unref();
    return timer;
  });
  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await Promise.all(passes);
    },
  };
}
