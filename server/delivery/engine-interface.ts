// The delivery engines behind one small interface (the shape of Documenso's jobs provider): the
// outbox code hands deliveries over inside its transaction; the engine runs the one delivery
// workflow (server/delivery/attempt.ts) with its own scheduling. Receivers cannot tell which
// engine ran it. Both engines import this module and nothing imports them back but the selector
// (server/delivery/engine.ts), so the imports flow one way.
import type { Prisma } from '@/server/db/generated/client';

export interface DeliveryJob {
  tenantId: string;
  deliveryId: string;
  eventId: string;
  endpointId: string;
  /** 1-based number of the attempt to make. */
  attempt: number;
}

export interface DeliveryEngine {
  readonly name: 'worker' | 'inngest';
  /**
   * Whether the hand-over is complete when the transaction commits (worker: the delivery rows are
   * its queue). If not, the event stays undispatched until the engine's relay confirms it.
   */
  readonly transactional: boolean;
  /**
   * A SELECT that hands `jobs` (never empty) over to the engine. It runs inside the statement that
   * writes their delivery rows, so the hand-over commits with them or not at all.
   */
  handOverSql(jobs: DeliveryJob[]): Prisma.Sql;
}
