import { transaction } from '@/server/db/unit-of-work';
import { recordAudit } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { assertAnotherAdmin, lockMembers } from './admins';
import { serializeMember } from './list-members';
import type { Member } from './schemas';

/** Sets a member's role; demoting the last admin is refused (409 last_admin). Takes effect at once. */
export function changeMemberRole(
  ctx: OperationContext,
  input: { user_id: string; role: 'admin' | 'agent' },
): Promise<Member> {
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const membership = await lockMembers(tx, input.user_id);
    if (membership.role === input.role) return serializeMember(membership);
    if (input.role !== 'admin') await assertAnotherAdmin(db, membership);
    const updated = await db.membership.update({
      where: { tenantId_userId: { tenantId: ctx.tenantId, userId: input.user_id } },
      data: { role: input.role },
      include: { user: true },
    });
    await recordAudit(tx, ctx, {
      action: 'member.role_changed',
      target: { type: 'user', id: input.user_id },
    });
    return serializeMember(updated);
  });
}
