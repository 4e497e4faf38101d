// What an attempt needs of its delivery `d`, event `e` and endpoint `w` (a `LoadedDelivery` row).
// Shared by the load below and the worker's claim (worker/queue.ts), so both read the same thing.
export const LOADED_DELIVERY_COLUMNS = `d.id, d.tenant_id::text as "tenantId", d.status::text as status, d.attempt_count as "attemptCount",
  d.traceparent,
  e.id as "eventId", e.type as "eventType", e.payload,
  w.id as "endpointId", w.url, w.is_active as "isActive", w.secret_enc as "secretEnc",
  w.previous_secret_enc as "previousSecretEnc", w.previous_secret_expires_at as "previousSecretExpiresAt"`;

export const DELIVERY_JOINS = `join events e on e.id = d.event_id and e.tenant_id = d.tenant_id
  join webhook_endpoints w on w.id = d.endpoint_id and w.tenant_id = d.tenant_id`;

/** One delivery ($1 id, $2 tenant id) as an attempt needs it. */
export const LOAD_DELIVERY_SQL = `select ${LOADED_DELIVERY_COLUMNS}
  from deliveries d ${DELIVERY_JOINS}
  where d.id = $1 and d.tenant_id = $2::uuid`;
