// Periodic housekeeping of a long-running server process (started from instrumentation.ts):
// finishes outbound messages a crash left `queued`. Idempotent, so several instances may run it.
import { failInterruptedMessages } from './domain/conversations/fail-interrupted-messages';
import { logger } from './log';

const EVERY_MS = 60_000;

export function startMaintenance(): { stop(): void } {
  const pass = () => {
    failInterruptedMessages()
      .then(
        (count) => count > 0 && logger().warn({ count }, 'marked interrupted outbound messages as failed'),
      )
      .catch((error) => logger().error({ err: error }, 'maintenance pass failed'));
  };
  pass();
  const timer = setInterval(pass, EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
