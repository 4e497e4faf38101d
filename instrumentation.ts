// Next.js calls register() once when the server starts (not during `next build`). The delivery
// engine runs in the Node.js server process only.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startDeliveryEngine } = await import('./server/delivery/start');
  await startDeliveryEngine();
}
