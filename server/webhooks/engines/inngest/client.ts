// The Inngest client (DELIVERY_ENGINE=inngest). Keys and dev mode come from INNGEST_EVENT_KEY,
// INNGEST_SIGNING_KEY and INNGEST_DEV, which the SDK reads itself.
import { Inngest } from 'inngest';

export const inngest = new Inngest({ id: 'switchboard' });

export const DELIVERY_REQUESTED = 'switchboard/delivery.requested';

export interface DeliveryRequested {
  name: typeof DELIVERY_REQUESTED;
  /**
   * The delivery id (with `~r<attemptBase>` for a recovered round): Inngest drops a second event with
   * the same id, so relaying twice is harmless, and each recovery is a new run.
   */
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
