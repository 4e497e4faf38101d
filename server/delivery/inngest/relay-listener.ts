// In a long-running server, relays the outbox to Inngest right after each commit: the outbox
// transaction NOTIFYs (delivered only on commit) and this listener runs a relay pass. On serverless
// hosts the Inngest cron sweep does the same job once a minute.
import pg from 'pg';
import { directDatabaseUrl } from '@/server/db/client';
import { logger } from '@/server/log';
import { inngest } from './client';
import { OUTBOX_CHANNEL } from './engine';
import { relayOutbox } from './relay';

const RETRY_EVERY_MS = 30_000;

export async function startRelayListener(): Promise<{ stop(): Promise<void> }> {
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
      .catch((error) => logger().error({ err: error }, 'outbox relay failed; the sweep will retry'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          pass();
        }
      });
  };
  client.on('notification', pass);
  client.on('error', (error) => logger().error({ err: error }, 'outbox listener connection failed'));
  await client.query(`listen ${OUTBOX_CHANNEL}`);
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
