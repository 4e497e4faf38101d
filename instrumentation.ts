// Next.js calls register() once when the server starts (not during `next build`), on a long-running
// server and on a serverless platform alike: the settings are validated here too, not only by the
// launcher. A long-running server then starts the delivery engine and the periodic jobs; in
// serverless mode nothing is started (no timers, no LISTEN): Inngest runs deliveries and jobs.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // Traces go to an OTLP collector only when one is named (docs/operations.md "Metrics and tracing").
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { registerOTel } = await import('@vercel/otel');
    registerOTel({ serviceName: process.env.OTEL_SERVICE_NAME ?? 'switchboard' });
  }
  const { settings, settingsProblems } = await import('./server/config/settings');
  const { logger } = await import('./server/log');
  const problems = settingsProblems();
  if (problems.length > 0) {
    // The platform keeps the function; it answers 503 naming these (see /api/health).
    for (const problem of problems) logger().fatal(`setting error: ${problem}`);
    return;
  }
  if (settings().SERVERLESS) return;
  const { startDeliveryEngine } = await import('./server/webhooks/engines');
  await startDeliveryEngine();
  await (await import('./server/timers/start')).startTimers(); // holds, reminders, conversation timers
  // With Inngest, the jobs are Inngest cron functions; the worker engine runs them here.
  if (settings().DELIVERY_ENGINE === 'worker') {
    const [{ jobsFor }, { runJobsLocally }] = await Promise.all([
      import('./server/jobs/registry'),
      import('./server/jobs/run-locally'),
    ]);
    runJobsLocally(jobsFor('worker'));
  }
}
