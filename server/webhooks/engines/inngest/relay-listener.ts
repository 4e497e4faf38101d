// In a long-running server, relays new deliveries to Inngest right after each commit: the hand-over's
// NOTIFY (delivered only on commit) runs a relay pass. On serverless hosts the sweep after each
// writing request and the Inngest cron sweep do the same job.
import { passOnNotification } from '@/server/db/listen';
import type { RunningEngine } from '@/server/webhooks/engines/engine';
import { DELIVERIES_CHANNEL } from '@/server/webhooks/hand-over';
import { inngest } from './client';
import { relayOutbox } from './relay';

export function startRelayListener(): Promise<RunningEngine> {
  // A failed send (Inngest unreachable) is retried every 30 s here too, not only by the cron sweep.
  return passOnNotification(DELIVERIES_CHANNEL, {
    name: 'delivery relay',
    retryEveryMs: 30_000,
    pass: () => relayOutbox((requests) => inngest.send(requests)),
  });
}
