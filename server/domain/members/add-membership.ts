// The one way a person is added to a tenant (an invitation accepted, the operator's `user create` or
// `tenant create` naming an existing user). A password reset link is issued only for a person of one
// tenant, because their password guards every tenant they belong to; joining another tenant therefore
// spends every reset link still open for them, whichever tenant issued it (issue 21, finding 2).
// `completePasswordReset` checks the memberships again when a link is used, for any path that adds a
// membership without coming here.
import type { Role } from '@/server/db/generated/enums';
import type { CrossTenantUnit, UnitOfWork } from '@/server/db/unit-of-work';
import { lockUser as lockUserSql } from './sql/lock-user';
import { spendPasswordResets } from './sql/spend-password-resets';

/** What both units' clients (a tenant's and the unscoped one) offer for this. */
interface MembershipWriter {
  membership: { create(args: { data: { tenantId: string; userId: string; role: Role } }): Promise<unknown> };
}

/**
 * Locks the person's user row until the transaction ends. Adding a membership and using a reset link
 * both take it first, so one of them always sees the other's outcome: a link is used either before the
 * person joins another tenant (and then it guarded one tenant only) or not at all.
 */
export async function lockUser(tx: UnitOfWork | CrossTenantUnit, userId: string): Promise<void> {
  await lockUserSql.rows(tx, userId);
}

/** Adds the membership in the caller's unit of work (in Prisma's transaction) and spends the person's open reset links. */
export async function addMembership(
  tx: UnitOfWork | CrossTenantUnit,
  input: { tenantId: string; userId: string; role: Role },
): Promise<void> {
  const db: MembershipWriter = await tx.orm();
  await lockUser(tx, input.userId);
  await db.membership.create({ data: { tenantId: input.tenantId, userId: input.userId, role: input.role } });
  await spendPasswordResets.execute(tx, input.userId);
}
