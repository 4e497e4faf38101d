// Next.js calls register() once when the server starts (not during `next build`). The delivery
// engine and housekeeping run in the Node.js server process only.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startDeliveryEngine } = await import('./server/delivery/start');
  await startDeliveryEngine();
  const { startMaintenance } = await import('./server/maintenance');
  startMaintenance();
}
