import { expect } from 'vitest';
import { signAccessToken } from '@/server/auth/jwt';
import { forTenant } from '@/server/db/tenant-scope';
import { client, createTestTenant, createTestUser } from './helpers';

/** Shared by the domain integration tests: a tenant seen by an admin (API key) and by an agent. */
export async function domainTenant(baseUrl: string, name: string) {
  const tenant = await createTestTenant(name);
  const agent = await createTestUser(tenant.tenantId, 'agent');
  const agentToken = await signAccessToken({
    userId: agent.userId,
    tenantId: tenant.tenantId,
    role: 'agent',
  });
  return {
    ...tenant,
    agentUserId: agent.userId,
    admin: client(baseUrl, { tenantId: tenant.tenantId, token: tenant.apiKey }),
    agent: client(baseUrl, { tenantId: tenant.tenantId, token: agentToken }),
  };
}

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
