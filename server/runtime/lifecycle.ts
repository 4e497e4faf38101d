// What runs in the background of a long-running server, started once from instrumentation.ts and
// stopped in order on a stop signal (./README.md). The launcher sets NEXT_MANUAL_SIG_HANDLE=true, so
// stopping is the app's job: the background work stops first, then the process exits.
//   worker engine  → the delivery worker, the timer worker, the periodic jobs (all in this process)
//   inngest engine → the relay that hands new work to Inngest, which runs it through /api/inngest
//   serverless     → nothing (Inngest runs everything; each writing request relays, ./after-response.ts)
import { settings } from '@/server/config/settings';
import { logger } from '@/server/log';
import { onStopSignal } from './signals';

interface Part {
  name: string;
  stop(): Promise<void>;
}

export interface Runtime {
  /** Stops every part, producers of work first and the delivery worker last, each awaited. */
  stop(): Promise<void>;
}

/** How long a stop may take before the process exits anyway (an attempt waits out its deadline). */
const HARD_STOP_MS = 15_000;

async function startParts(): Promise<Part[]> {
  if (settings().SERVERLESS) return [];
  if (settings().DELIVERY_ENGINE === 'inngest') {
    const { startRelay } = await import('./relay');
    return [{ name: 'inngest relay', ...(await startRelay()) }];
  }
  const [{ startDeliveryWorker }, { startTimerWorker }, { startPeriodicJobs }, { PERIODIC_JOBS }] =
    await Promise.all([
      import('./deliveries/worker'),
      import('./timers/worker'),
      import('./periodic'),
      import('./jobs'),
    ]);
  const deliveries = await startDeliveryWorker();
  const timers = await startTimerWorker();
  const jobs = startPeriodicJobs(PERIODIC_JOBS);
  // Stopped in this order: what makes new events first, what delivers them last.
  return [
    { name: 'periodic jobs', ...jobs },
    { name: 'timer worker', ...timers },
    { name: 'delivery worker', ...deliveries },
  ];
}

function runtimeOf(parts: Part[]): Runtime {
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        for (const part of parts) {
          await part
            .stop()
            .catch((error) => logger().error({ err: error, part: part.name }, 'did not stop cleanly'));
        }
      })();
      return stopped;
    },
  };
}

const holder = globalThis as unknown as { __switchboardRuntime?: Promise<Runtime> };

/**
 * Starts the background runtime of this process (once, however often it is called) and stops it on
 * the first stop signal, then exits.
 */
export function startRuntime(): Promise<Runtime> {
  holder.__switchboardRuntime ??= (async () => {
    const runtime = runtimeOf(await startParts());
    logger().info(
      { engine: settings().DELIVERY_ENGINE, serverless: settings().SERVERLESS },
      'runtime started',
    );
    onStopSignal((signal) => {
      logger().info({ signal }, 'stopping the background runtime');
      setTimeout(() => process.exit(1), HARD_STOP_MS).unref();
      void runtime.stop().finally(() => process.exit(0));
    });
    return runtime;
  })();
  return holder.__switchboardRuntime;
}
