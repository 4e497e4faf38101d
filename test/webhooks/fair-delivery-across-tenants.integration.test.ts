import { describe, expect, it } from 'vitest';
import { settings } from '@/server/config/settings';
import { runFairnessScenario } from '../support/fairness-scenario';

// A tenant with many slow endpoints and a backlog must not hold every delivery slot: claims are
// capped per tenant and per endpoint and take turns across tenants
// (server/webhooks/engines/worker/sql/claim-deliveries.sql), so another tenant's deliveries arrive
// within seconds.
describe("security finding 1: one tenant can starve every other tenant's webhooks", () => {
  it("tenant B's deliveries arrive within seconds while tenant A's 20 slow endpoints drain 500 events", {
    timeout: 180_000,
  }, async () => {
    const figures = await runFairnessScenario({
      slowEndpoints: 20,
      slowEvents: 500,
      slowMs: 3_000,
      fastEvents: 20,
      fastIntervalMs: 200,
      waitMs: 15_000,
    });
    console.log(
      `security finding 1: B's ${figures.fastArrivalsMs.length}/${figures.fastExpected} deliveries arrived ` +
        `p50 ${figures.p50} ms, p95 ${figures.p95} ms, max ${figures.max} ms after commit, while A had ` +
        `${figures.slowPendingAtEnd} of ${figures.slowBacklog} deliveries pending and at most ` +
        `${figures.slowInFlightMax} in flight`,
    );
    // Every one of B's deliveries arrived, the slowest within 2 s (an idle machine: tens of ms).
    expect(figures.fastArrivalsMs).toHaveLength(figures.fastExpected);
    expect(figures.p95).not.toBeNull();
    expect(figures.p95 as number).toBeLessThan(2_000);
    // …while A was still draining its backlog, never holding more than its cap of slots.
    expect(figures.slowPendingAtEnd).toBeGreaterThan(figures.slowBacklog * 0.9);
    expect(figures.slowInFlightMax).toBeGreaterThan(0);
    expect(figures.slowInFlightMax).toBeLessThanOrEqual(settings().WEBHOOK_MAX_IN_FLIGHT_PER_TENANT);
  });
});
