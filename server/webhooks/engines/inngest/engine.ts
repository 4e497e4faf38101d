// The Inngest engine: Inngest is outside the database, so nothing can be sent inside the outbox
// transaction. The relay (./relay.ts) reads the delivery rows not yet handed to Inngest and sends
// one event each: after every commit (the NOTIFY listener, ./relay-listener.ts), after each writing
// request on serverless hosts (../after-write.ts) and every minute (the `sweep-outbox` job), so a
// crash between commit and relay strands nothing.
import type { DeliveryEngine } from '@/server/webhooks/engines/engine';
import { inngest } from './client';
import { relayOutbox } from './relay';
import { startRelayListener } from './relay-listener';

export const inngestEngine: DeliveryEngine = {
  name: 'inngest',
  start: () => startRelayListener(),
  sweep: () => relayOutbox((requests) => inngest.send(requests)),
};
