import { expect } from 'vitest';
import { forTenant } from '@/server/db/tenant-scope';

/** The events recorded for a tenant, oldest first, optionally of one type or about one object. */
export async function eventsOf(tenantId: string, filter: { type?: string; objectId?: string } = {}) {
  const rows = await forTenant(tenantId).event.findMany({
    where: filter.type ? { type: filter.type } : {},
    orderBy: { id: 'asc' },
  });
  // biome-ignore lint/suspicious/noExplicitAny: envelopes are checked field by field in the tests
  const envelopes = rows.map((r) => r.payload as any);
  return filter.objectId ? envelopes.filter((e) => e.data.object.id === filter.objectId) : envelopes;
}

export function expectProblemCode(
  res: { status: number; body: { code?: string } },
  status: number,
  code: string,
) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
}
