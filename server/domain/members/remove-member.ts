import { transaction } from '@/server/db/unit-of-work';
import { recordAudit } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { assertAnotherAdmin, lockMembers } from './admins';
import { membershipsOfUser } from './sql/memberships-of-user';

/**
 * Takes a person out of the tenant; removing the last admin is refused (409 last_admin). In the same
 * transaction: their refresh tokens for this tenant are revoked, their unused password reset links
 * from this tenant are spent, and, when they belong to no other tenant, their dashboard sessions end.
 * Access tokens and dashboard requests re-read the membership, so both stop at once (docs/decisions.md "Security").
 */
export function removeMember(ctx: OperationContext, input: { user_id: string }): Promise<void> {
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const membership = await lockMembers(tx, input.user_id);
    await assertAnotherAdmin(db, membership);
    const now = new Date();
    await db.membership.deleteMany({ where: { userId: input.user_id } });
    await db.refreshToken.updateMany({
      where: { userId: input.user_id, revokedAt: null },
      data: { revokedAt: now },
    });
    await db.passwordReset.updateMany({
      where: { userId: input.user_id, usedAt: null },
      data: { usedAt: now },
    });
    // Memberships elsewhere are looked up across tenants on purpose: the sessions are the person's.
    const elsewhere = await membershipsOfUser.rows(tx, input.user_id);
    if (elsewhere.length === 0) {
      await db.webSession.updateMany({
        where: { userId: input.user_id, revokedAt: null },
        data: { revokedAt: now },
      });
    }
    await recordAudit(tx, ctx, { action: 'member.removed', target: { type: 'user', id: input.user_id } });
  });
}
