import { db } from '../db/client';
import { createTenantWithAdmin, createUser } from '../domain/tenants';

/** Development only: a demo tenant on first start, so the API and dashboard show something real. */
export const DEMO = {
  tenantName: 'Demo Clinic',
  adminEmail: 'admin@demo.switchboard.test',
  adminPassword: 'switchboard-demo',
  agentEmail: 'agent@demo.switchboard.test',
  agentPassword: 'switchboard-agent',
};

export async function seedDemoTenant(say: (line: string) => void, port: number): Promise<void> {
  const existing = await db().user.findUnique({ where: { email: DEMO.adminEmail }, include: { memberships: true } });
  let tenantId = existing?.memberships[0]?.tenantId;
  if (!tenantId) {
    const created = await createTenantWithAdmin({
      name: DEMO.tenantName,
      adminEmail: DEMO.adminEmail,
      adminPassword: DEMO.adminPassword,
      adminName: 'Demo Admin',
    });
    tenantId = created.tenantId;
    await createUser({ tenantId, email: DEMO.agentEmail, password: DEMO.agentPassword, role: 'agent', name: 'Demo Agent' });
    say(`Seeded the demo tenant ${tenantId}; its first API key (shown once): ${created.apiKey}`);
  }
  say(
    `Sign in at http://localhost:${port}/login as ${DEMO.adminEmail} / ${DEMO.adminPassword} (agent: ${DEMO.agentEmail} / ${DEMO.agentPassword})`,
  );
  say(`API: X-Tenant-ID: ${tenantId}; docs at http://localhost:${port}/api/v1/openapi.json`);
}
