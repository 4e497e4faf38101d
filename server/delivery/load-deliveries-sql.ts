/**
 * What an attempt needs of its delivery, event and endpoint, for a batch of (delivery id, tenant id)
 * pairs ($1 text[], $2 uuid[]). Shared by the worker's store and the Prisma store in attempt.ts.
 */
// Each job's delivery is its own primary-key lookup (the `limit 1` keeps the subquery from being
// merged into a join): a plain join of many ids took a statistics-dependent plan, measured at
// 18 ms a call on the bench, where this stays a few index probes per job.
export const LOAD_DELIVERIES_SQL = `select x.*
  from unnest($1::text[], $2::uuid[]) as j(id, tenant_id)
  cross join lateral (
    select d.id, d.tenant_id::text as "tenantId", d.status::text as status, d.attempt_count as "attemptCount",
      e.id as "eventId", e.type as "eventType", e.payload,
      w.id as "endpointId", w.url, w.is_active as "isActive", w.secret_enc as "secretEnc",
      w.previous_secret_enc as "previousSecretEnc", w.previous_secret_expires_at as "previousSecretExpiresAt"
    from deliveries d
    join events e on e.id = d.event_id and e.tenant_id = d.tenant_id
    join webhook_endpoints w on w.id = d.endpoint_id and w.tenant_id = d.tenant_id
    where d.id = j.id and d.tenant_id = j.tenant_id
    limit 1
  ) as x`;
