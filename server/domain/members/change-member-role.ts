import { inTransaction, recordAudit } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { assertAnotherAdmin, lockMembers } from './admins';
import { serializeMember } from './list-members';
import type { Member } from './schemas';

/** Sets a member's role; demoting the last admin is refused (409 last_admin). Takes effect at once. */
export function changeMemberRole(
  ctx: OperationContext,
  input: { user_id: string; role: 'admin' | 'agent' },
): Promise<Member> {
  return inTransaction(ctx, async (_txCtx, tx) => {
    const membership = await lockMembers(tx, ctx.tenantId, input.user_id);
    if (membership.role === input.role) return serializeMember(membership);
    if (input.role !== 'admin') await assertAnotherAdmin(tx, membership);
    const updated = await tx.membership.update({
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
