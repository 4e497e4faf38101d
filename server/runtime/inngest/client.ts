// The service's one Inngest app (DELIVERY_ENGINE=inngest), and the events the relay sends it. Keys
// and dev mode come from INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY and INNGEST_DEV, which the SDK reads
// itself.
import { Inngest } from 'inngest';

export const inngest = new Inngest({ id: 'switchboard' });

export interface InngestEvent {
  name: string;
  /** Inngest drops a second event with the same id: relaying twice is harmless. */
  id: string;
  data: Record<string, unknown>;
}

/**
 * A kind of work the relay (../relay.ts) hands to Inngest: it keeps what is not yet handed over in
 * its own rows and turns them into events.
 */
export interface RelaySource<E extends InngestEvent = InngestEvent> {
  /** Names the kind in the logs. */
  name: string;
  /** The NOTIFY channel its commits send on. */
  channel: string;
  /** Up to `limit` rows not yet handed over: how many were read, their events, and how to mark them sent. */
  read(limit: number): Promise<{ rows: number; events: E[]; markSent(): Promise<void> }>;
}

export const DELIVERY_REQUESTED = 'switchboard/delivery.requested';

export interface DeliveryRequested extends InngestEvent {
  name: typeof DELIVERY_REQUESTED;
  /** The delivery id (with `~r<attemptBase>` for a recovered round): each recovery is a new run. */
  id: string;
  data: {
    tenantId: string;
    deliveryId: string;
    endpointId: string;
    eventId: string;
    /** The delivery's attempt_count when this round began (0, or where a recovery started it again). */
    attemptBase?: number;
  };
}

export const TIMER_PLANNED = 'switchboard/timer.planned';

export interface TimerPlanned extends InngestEvent {
  name: typeof TIMER_PLANNED;
  /** `<timer id>~g<generation>`: each plan of a timer is a run of its own. */
  id: string;
  data: { timerId: string; tenantId: string; generation: number; dueAt: string };
}
