// The last-admin rule (docs/decisions.md "Tenant administration"): a tenant always keeps at least one admin.
import type { TenantTx } from '@/server/db/tenant-scope';
import { AppError, Errors } from '@/server/lib/errors';

/**
 * Locks every membership row of the tenant until the transaction ends, then returns the target's
 * membership. Two admins demoting or removing each other at once therefore run one after the other,
 * and the second sees the first's change: the tenant can never be left without an admin.
 */
export async function lockMembers(tx: TenantTx, tenantId: string, userId: string) {
  await tx.$queryRaw`select 1 from memberships where tenant_id = ${tenantId}::uuid order by user_id for update`;
  const membership = await tx.membership.findFirst({ where: { userId }, include: { user: true } });
  if (!membership) throw Errors.notFound('Member');
  return membership;
}

/** Refuses a change that would take the role `admin` from the tenant's only admin. */
export async function assertAnotherAdmin(tx: TenantTx, membership: { userId: string; role: string }) {
  if (membership.role !== 'admin') return;
  const others = await tx.membership.count({ where: { role: 'admin', userId: { not: membership.userId } } });
  if (others === 0) {
    throw new AppError(
      'last_admin',
      'This is the tenant’s last admin: make another member admin first, then change or remove this one',
    );
  }
}
