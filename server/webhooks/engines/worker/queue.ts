// The worker engine's queue is the deliveries table itself: a pending delivery whose
// `next_attempt_at` has come is due. Workers claim due deliveries with SKIP LOCKED, so any number
// of processes share one database; a claim holds its delivery until `locked_until`, and recording
// the attempt ends it. A claim of a process that died simply lapses, so its deliveries run again
// (at least once, never lost) without any heartbeat or unlock step. The statements are
// ./sql/claim-deliveries.sql (the claim is also the load) and ./sql/release-claims.sql.

/**
 * How long a claim holds its delivery. A worker starts a claimed delivery only while at least
 * `WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS` of the claim remain, so the attempt, its deadline and its
 * record fit inside the claim; a delivery of a dead process runs again within this time.
 */
export const CLAIM_MARGIN_MS = 10_000;
export function claimLeaseMs(timeoutMs: number): number {
  return 2 * (timeoutMs + CLAIM_MARGIN_MS);
}
