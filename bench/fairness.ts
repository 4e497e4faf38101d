// Fair delivery: tenant A has 20 slow endpoints (loopback receivers that answer after 3 s) and 500
// events, 10,000 deliveries; while the worker drains them, tenant B sends 20 events, one every 200 ms,
// to one fast endpoint. The figure is B's p95 from commit to arrival while A drains (the scenario of
// test/webhooks/fair-delivery-across-tenants.integration.test.ts, on a database of its own). A queue
// that claimed oldest-first across tenants would keep B behind A's whole backlog (10,000 × 3 s over
// 10 slots: about 50 minutes).
import { withBenchDatabase } from './_database';
import type { BenchResult } from './_results';

export function run(): Promise<BenchResult> {
  return withBenchDatabase('fairness', async () => {
    const { runFairnessScenario } = await import('@/test/support/fairness-scenario');
    const figures = await runFairnessScenario({
      slowEndpoints: 20,
      slowEvents: 500,
      slowMs: 3_000,
      fastEvents: 20,
      fastIntervalMs: 200,
      waitMs: 30_000,
    });
    console.log(
      `fairness: tenant B's p95 arrival while tenant A drains ${figures.slowBacklog} slow deliveries: ` +
        `${figures.p95 ?? `never (${figures.fastArrivalsMs.length}/${figures.fastExpected} arrived)`} ms ` +
        `(p50 ${figures.p50} ms, max ${figures.max} ms; A at most ${figures.slowInFlightMax} in flight, ` +
        `${figures.slowPendingAtEnd} still pending)`,
    );
    return {
      ratios: figures.p95 === null ? {} : { fairness_b_p95_ms: figures.p95 },
      raw: { ...figures },
    };
  });
}
