// What a bench reports to bench/run.ts, which writes bench/results.json. Every ratio is measured
// against a baseline in the same run (alternating rounds, median of the per-round ratios), except
// `events_per_s`, an absolute rate, `stats_p95_ms_*`, absolute latencies (bench/stats.ts), and
// `recover_10k_s`, the seconds POST /webhooks/{id}/recover takes to requeue 10,000 failed deliveries
// (bench/recover.ts), the bookings bench's `slots_p95_ms_31d` and `slots_wide_ms_31d` (absolute), `booking_contention_per_s`
// and `booking_contention_409_share` (bench/bookings.ts), with `public_slots_p95_ms_31d` and
// `public_booking_contention_per_s`, the same through the booking page's public routes, and `fairness_b_p95_ms`, one tenant's p95
// commit → arrival while another tenant's slow backlog drains (bench/fairness.ts). `floor_*_vs_bare_10`
// are the durable floors (bench/_durable-floor.ts) against the bare loop, and `drain_vs_floor_product_10`
// the worker's drain against the floor on the product's tables, all in the same rounds.
// `session_vs_key_mcp_call` is a cost ratio (bench/assistant.ts): an MCP call's p50 with an assistant
// session token over the same call's with an API key, above 1 when the session costs more.
// `tap_p50_ms` / `tap_p95_ms` (absolute) are a WhatsApp tap's webhook → held → reply latencies and
// `tap_vs_send_p50` their p50 over an agent's text send through the API in the same rounds (bench/whatsapp.ts).
export const RATIO_KEYS = [
  'read_vs_health_1',
  'read_vs_health_10',
  'write_vs_health_10',
  'events_per_s',
  'drain_vs_bare_1',
  'drain_vs_bare_10',
  'drain_vs_bare_100',
  'floor_bare_queue_vs_bare_10',
  'floor_product_vs_bare_10',
  'drain_vs_floor_product_10',
  'scale_read',
  'scale_drain',
  'stats_p95_ms_24h',
  'stats_p95_ms_30d',
  'recover_10k_s',
  'slots_p95_ms_31d',
  'slots_vs_read',
  'slots_wide_ms_31d',
  'slots_wide_vs_read',
  'booking_contention_per_s',
  'booking_contention_409_share',
  'public_slots_p95_ms_31d',
  'public_booking_contention_per_s',
  'fairness_b_p95_ms',
  'session_vs_key_mcp_call',
  'tap_p50_ms',
  'tap_p95_ms',
  'tap_vs_send_p50',
] as const;

export type RatioKey = (typeof RATIO_KEYS)[number];

export interface BenchResult {
  ratios: Partial<Record<RatioKey, number>>;
  /** The figures the ratios come from (req/s, deliveries/s, latencies, memory). */
  raw: Record<string, unknown>;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export const round = (n: number, digits = 3) => Number(n.toFixed(digits));
