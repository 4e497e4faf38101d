// Inngest engine hand-over. Inngest is outside the database, so nothing can be sent inside the
// transaction: the event stays undispatched (the outbox), a NOTIFY (delivered only on commit) wakes
// the relay, and the relay's periodic sweep catches anything a crash left behind
// (server/delivery/inngest/relay.ts).
import { Prisma } from '@/server/db/generated/client';
import type { DeliveryEngine } from '@/server/delivery/engine-interface';

export const OUTBOX_CHANNEL = 'switchboard_outbox';

export const inngestEngine: DeliveryEngine = {
  name: 'inngest',
  transactional: false,
  handOverSql: (jobs) => Prisma.sql`select pg_notify(${OUTBOX_CHANNEL}::text, ${jobs[0].eventId}::text)`,
};
