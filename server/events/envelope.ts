// The event envelope on the wire (docs/integrators.md, "Events and their shapes"): what receivers get, what GET /events shows and
// what the delivery detail shows as the payload. One writer, so all three are byte-for-byte alike.

export interface EventEnvelope<T = Record<string, unknown>> {
  id: string;
  type: string;
  created_at: string;
  tenant_id: string;
  api_version: 'v1';
  data: { object: T; previous?: Record<string, unknown> };
}

/**
 * The envelope as sent: top-level keys in the documented order (`id, type, created_at, tenant_id,
 * api_version, data`); the stored jsonb does not keep order.
 */
export function envelopeBody(payload: unknown): string {
  const p = payload as Record<string, unknown>;
  const { id, type, created_at, tenant_id, api_version, data, ...rest } = p;
  return JSON.stringify({ id, type, created_at, tenant_id, api_version, data, ...rest });
}

/** A stored event's envelope with its keys in that order, exactly as receivers get it. */
export function envelopeOf(event: { payload: unknown }): EventEnvelope {
  return JSON.parse(envelopeBody(event.payload)) as EventEnvelope;
}
