import type { OperationContext } from '@/server/domain/context';
import type { Member } from './schemas';

/** Everyone in the tenant, in the order they joined (a team, not a growing log: one page). */
export async function listMembers(ctx: OperationContext): Promise<{ data: Member[] }> {
  const rows = await ctx.db.membership.findMany({
    include: { user: true },
    orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
  });
  return { data: rows.map(serializeMember) };
}

export function serializeMember(row: {
  userId: string;
  role: 'admin' | 'agent';
  createdAt: Date;
  user: { email: string; name: string };
}): Member {
  return {
    user_id: row.userId,
    email: row.user.email,
    name: row.user.name,
    role: row.role,
    created_at: row.createdAt.toISOString(),
  };
}
