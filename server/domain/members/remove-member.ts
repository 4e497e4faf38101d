import { inTransaction, recordAudit } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { assertAnotherAdmin, lockMembers } from './admins';

/**
 * Takes a person out of the tenant; removing the last admin is refused (409 last_admin). In the same
 * transaction: their refresh tokens for this tenant are revoked, their unused password reset links
 * from this tenant are spent, and, when they belong to no other tenant, their dashboard sessions end.
 * Access tokens and dashboard requests re-read the membership, so both stop at once (docs/decisions.md "Security").
 */
export function removeMember(ctx: OperationContext, input: { user_id: string }): Promise<void> {
  return inTransaction(ctx, async (_txCtx, tx) => {
    const membership = await lockMembers(tx, ctx.tenantId, input.user_id);
    await assertAnotherAdmin(tx, membership);
    const now = new Date();
    await tx.membership.deleteMany({ where: { userId: input.user_id } });
    await tx.refreshToken.updateMany({
      where: { userId: input.user_id, revokedAt: null },
      data: { revokedAt: now },
    });
    await tx.passwordReset.updateMany({
      where: { userId: input.user_id, usedAt: null },
      data: { usedAt: now },
    });
    // Memberships elsewhere are looked up across tenants on purpose: the sessions are the person's.
    const elsewhere = await tx.$queryRaw<{ n: number }[]>`
      select count(*)::int as n from memberships where user_id = ${input.user_id}`;
    if (elsewhere[0].n === 0) {
      await tx.webSession.updateMany({
        where: { userId: input.user_id, revokedAt: null },
        data: { revokedAt: now },
      });
    }
    await recordAudit(tx, ctx, { action: 'member.removed', target: { type: 'user', id: input.user_id } });
  });
}
