import type { TenantTx } from '../db/tenant-scope';
import { newId } from '../lib/ids';
import type { EventType } from './catalog';

/**
 * The transactional outbox. Call inside the same transaction as the change the event describes:
 * the event row commits with the change or not at all. Fan-out to webhook endpoints happens
 * after commit (server/webhooks), and a sweep picks up any event whose fan-out was interrupted.
 */
export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  created_at: string;
  tenant_id: string;
  api_version: 'v1';
  data: { object: T; previous?: Record<string, unknown> };
}

export async function recordEvent<T>(
  tx: TenantTx,
  input: { tenantId: string; type: EventType; object: T; previous?: Record<string, unknown> },
): Promise<EventEnvelope<T>> {
  const id = newId('event');
  const createdAt = new Date();
  const envelope: EventEnvelope<T> = {
    id,
    type: input.type,
    created_at: createdAt.toISOString(),
    tenant_id: input.tenantId,
    api_version: 'v1',
    data: input.previous ? { object: input.object, previous: input.previous } : { object: input.object },
  };
  await tx.event.create({
    data: { id, tenantId: input.tenantId, type: input.type, payload: envelope as object, createdAt },
  });
  return envelope;
}
