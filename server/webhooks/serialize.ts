// REST shapes of endpoints and deliveries; the tRPC layer returns the same objects.
import type { Delivery, DeliveryAttempt, Event, WebhookEndpoint } from '@/server/db/generated/client';

export interface EndpointStats {
  recent_attempts: number;
  recent_success_rate: number | null;
}

export function serializeEndpoint(
  e: WebhookEndpoint,
  stats: EndpointStats = { recent_attempts: 0, recent_success_rate: null },
) {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    description: e.description,
    is_active: e.isActive,
    disabled_reason: e.disabledReason === 'failing' ? ('failing' as const) : null,
    disabled_at: e.disabledAt?.toISOString() ?? null,
    rate_limit_per_second: e.rateLimitPerSecond,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
    ...stats,
  };
}
export type EndpointResource = ReturnType<typeof serializeEndpoint>;

export function serializeDelivery(
  d: Delivery & { event: Pick<Event, 'type'>; attempts?: DeliveryAttempt[] },
) {
  // `attempts` holds the newest attempt (lists) or all of them (detail); either way the last is the latest.
  const latest = d.attempts?.reduce<DeliveryAttempt | null>(
    (a, b) => (a && a.attemptNumber > b.attemptNumber ? a : b),
    null,
  );
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.event.type,
    endpoint_id: d.endpointId,
    status: d.status,
    attempt_count: d.attemptCount,
    next_attempt_at: d.status === 'pending' ? (d.nextAttemptAt?.toISOString() ?? null) : null,
    last_attempt_at: d.lastAttemptAt?.toISOString() ?? null,
    resend_of_id: d.resendOfId,
    last_attempt: latest ? serializeAttempt(latest) : null,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}
export type DeliveryResource = ReturnType<typeof serializeDelivery>;

export function serializeAttempt(a: DeliveryAttempt) {
  return {
    attempt_number: a.attemptNumber,
    started_at: a.startedAt.toISOString(),
    succeeded: a.succeeded,
    response_status: a.responseStatus,
    latency_ms: a.latencyMs,
    response_excerpt: a.responseExcerpt,
    error: a.error,
  };
}
