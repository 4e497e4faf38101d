// The one way a person is added to a tenant (an invitation accepted, the operator's `user create` or
// `tenant create` naming an existing user). A password reset link is issued only for a person of one
// tenant, because their password guards every tenant they belong to; joining another tenant therefore
// spends every reset link still open for them, whichever tenant issued it (issue 21, finding 2).
// `completePasswordReset` checks the memberships again when a link is used, for any path that adds a
// membership without coming here.
import type { Role } from '@/server/db/generated/enums';

/** What both transaction clients (the unscoped one and a tenant's) offer for this. */
interface MembershipTx {
  membership: { create(args: { data: { tenantId: string; userId: string; role: Role } }): Promise<unknown> };
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number>;
}

/**
 * Locks the person's user row until the transaction ends. Adding a membership and using a reset link
 * both take it first, so one of them always sees the other's outcome: a link is used either before the
 * person joins another tenant (and then it guarded one tenant only) or not at all.
 */
export function lockUser(tx: Pick<MembershipTx, '$executeRaw'>, userId: string): Promise<number> {
  return tx.$executeRaw`select 1 from users where id = ${userId} for update`;
}

/** Adds the membership in the caller's transaction and spends the person's open reset links. */
export async function addMembership(
  tx: MembershipTx,
  input: { tenantId: string; userId: string; role: Role },
): Promise<void> {
  await lockUser(tx, input.userId);
  await tx.membership.create({ data: { tenantId: input.tenantId, userId: input.userId, role: input.role } });
  // Across tenants on purpose: links issued by any tenant stop guarding only that tenant.
  await tx.$executeRaw`
    update password_resets set used_at = now() where user_id = ${input.userId} and used_at is null`;
}
