// Starts the timers in a long-running server (one line in instrumentation.ts): the worker loop with
// the worker engine, or the relay of plans to Inngest with the Inngest engine (serverless hosts run
// only the Inngest functions and the `sweep-timers` cron). Stops on SIGTERM/SIGINT.
import { settings } from '@/server/config/settings';
import { passOnNotification } from '@/server/db/listen';
import { logger } from '@/server/log';
import { TIMER_CHANNEL } from './plan';

const holder = globalThis as unknown as { __switchboardTimers?: Promise<{ stop(): Promise<void> }> };

export function startTimers(): Promise<{ stop(): Promise<void> }> {
  holder.__switchboardTimers ??= (async () => {
    const running =
      settings().DELIVERY_ENGINE === 'worker'
        ? await (await import('./worker')).startTimerWorker()
        : await startTimerRelay();
    const stop = () =>
      void running.stop().catch((error) => logger().error({ err: error }, 'timers did not stop cleanly'));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    return running;
  })();
  return holder.__switchboardTimers;
}

/** Relays plans to Inngest right after each commit (NOTIFY), and every 30 s in case a send failed. */
async function startTimerRelay(): Promise<{ stop(): Promise<void> }> {
  const [{ relayTimers }, { inngest }] = await Promise.all([
    import('./inngest'),
    import('@/server/webhooks/engines/inngest/client'),
  ]);
  return passOnNotification(TIMER_CHANNEL, {
    name: 'timer relay',
    retryEveryMs: 30_000,
    pass: () => relayTimers((events) => inngest.send(events)),
  });
}
