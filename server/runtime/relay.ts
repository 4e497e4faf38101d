// The Inngest engine's one relay. Inngest lives outside the database, so nothing can be sent inside
// the transaction that makes work due: each kind of work (./deliveries/relay.ts, ./timers/relay.ts)
// keeps what is not yet handed over in its own rows, and the relay reads them, sends one event each,
// and marks them. Event ids make a second send harmless (Inngest drops duplicates), so a crash
// between sending and marking strands nothing and sends nothing twice. It runs:
// - after every commit that makes work due, in a long-running server (NOTIFY on the kinds' channels);
// - after each writing request on a serverless host (./after-response.ts);
// - every minute from the `relay-sweep` cron function (./inngest/functions.ts), which catches what a
//   crash or an unreachable Inngest left behind.
import { passOnNotification } from '@/server/db/listen';
import { logger } from '@/server/log';
import { deliveryRelay } from './deliveries/relay';
import { type InngestEvent, inngest, type RelaySource } from './inngest/client';
import { timerRelay } from './timers/relay';

export const RELAY_SOURCES: RelaySource[] = [deliveryRelay, timerRelay];

const BATCH = 500;

export type Send = (events: InngestEvent[]) => Promise<unknown>;

const sendToInngest: Send = (events) => inngest.send(events);

/**
 * One pass: every source, in batches until nothing is left (a bulk recovery resets thousands at
 * once). Resolves to how many events were sent.
 */
export async function relayPass(send: Send = sendToInngest, sources = RELAY_SOURCES): Promise<number> {
  let sent = 0;
  for (const source of sources) {
    for (;;) {
      const batch = await source.read(BATCH);
      if (batch.events.length > 0) await send(batch.events);
      await batch.markSent();
      sent += batch.events.length;
      if (batch.rows < BATCH) break;
    }
  }
  if (sent > 0) logger().debug({ sent }, 'relayed to Inngest');
  return sent;
}

/**
 * The relay of a long-running server on the Inngest engine: a pass after every notice on any
 * source's channel, and every 30 s in case one failed (Inngest unreachable).
 */
export function startRelay(): Promise<{ stop(): Promise<void> }> {
  return passOnNotification(
    RELAY_SOURCES.map((s) => s.channel),
    { name: 'inngest relay', retryEveryMs: 30_000, pass: () => relayPass() },
  );
}
