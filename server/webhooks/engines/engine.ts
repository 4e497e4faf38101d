// The delivery engines behind one small interface (the shape of Documenso's jobs provider). The
// outbox hands deliveries over engine-neutrally (../hand-over.ts: the delivery rows plus a NOTIFY);
// an engine is a consumer of those rows that runs the one delivery attempt (../attempt/run-attempt.ts)
// on its own schedule. Receivers cannot tell which engine ran it. Both engines import this module and
// nothing imports them but the selector (./index.ts) and Inngest's own route, so imports flow one way.

export type EngineName = 'worker' | 'inngest';

export interface RunningEngine {
  /** Stops taking new work, lets what runs finish, and closes the engine's connections. */
  stop(): Promise<void>;
}

export interface DeliveryEngine {
  readonly name: EngineName;
  /**
   * Starts consuming handed-over deliveries in this long-running process (it LISTENs on the
   * hand-over channel and also looks at the rows on a timer).
   */
  start(): Promise<RunningEngine>;
  /**
   * One pass over the handed-over rows for hosts where nothing runs between requests (serverless:
   * after a writing request's response) and for the periodic sweep. Resolves to how many deliveries
   * it passed on. The worker has nothing to pass on (it claims the rows it runs), so it resolves 0.
   */
  sweep(): Promise<number>;
}
