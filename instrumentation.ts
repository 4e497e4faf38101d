// Next.js calls register() once when the server starts (not during `next build`), on a long-running
// server and on a serverless platform alike: the settings are validated here too, not only by the
// launcher. Then the background runtime starts (server/runtime/README.md): the worker loops and
// periodic jobs, or the relay to Inngest; in serverless mode nothing (Inngest runs everything).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // Traces go to an OTLP collector only when one is named (docs/operations.md, "Metrics and tracing").
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { registerOTel } = await import('@vercel/otel');
    registerOTel({ serviceName: process.env.OTEL_SERVICE_NAME ?? 'switchboard' });
  }
  const { settingsProblems } = await import('./server/config/settings');
  const { logger } = await import('./server/log');
  const problems = settingsProblems();
  if (problems.length > 0) {
    // The platform keeps the function; it answers 503 naming these (see /api/health).
    for (const problem of problems) logger().fatal(`setting error: ${problem}`);
    return;
  }
  await (await import('./server/runtime/lifecycle')).startRuntime();
}
