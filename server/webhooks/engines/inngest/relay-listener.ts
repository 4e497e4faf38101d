// In a long-running server, relays new deliveries to Inngest right after each commit: the hand-over's
// NOTIFY (delivered only on commit) runs a relay pass. On serverless hosts the sweep after each
// writing request and the Inngest cron sweep do the same job.
import pg from 'pg';
import { directDatabaseUrl } from '@/server/db/client';
import { logger } from '@/server/log';
import type { RunningEngine } from '@/server/webhooks/engines/engine';
import { DELIVERIES_CHANNEL } from '@/server/webhooks/hand-over';
import { inngest } from './client';
import { relayOutbox } from './relay';

const RETRY_EVERY_MS = 30_000;

export async function startRelayListener(): Promise<RunningEngine> {
  const client = new pg.Client({ connectionString: directDatabaseUrl() });
  await client.connect();
  let running: Promise<void> | null = null;
  let again = false;
  const pass = () => {
    if (running) {
      again = true;
      return;
    }
    running = relayOutbox((requests) => inngest.send(requests))
      .then(() => undefined)
      .catch((error) => logger().error({ err: error }, 'delivery relay failed; the sweep will retry'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          pass();
        }
      });
  };
  client.on('notification', pass);
  client.on('error', (error) => logger().error({ err: error }, 'delivery relay listener connection failed'));
  await client.query(`listen ${DELIVERIES_CHANNEL}`);
  pass(); // whatever was committed while no listener ran
  // A failed send (Inngest unreachable) is retried here too, not only by the Inngest cron sweep.
  const retry = setInterval(pass, RETRY_EVERY_MS);
  retry.unref();
  return {
    async stop() {
      clearInterval(retry);
      await running;
      await client.end();
    },
  };
}
