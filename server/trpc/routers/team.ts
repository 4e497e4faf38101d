// Settings > Team (CONTRACT §14): the same domain operations and input schemas as REST /members and
// /invitations. Admins only.
import { z } from 'zod';
import { changeMemberRole } from '@/server/domain/members/change-member-role';
import { createInvitation, listInvitations, revokeInvitation } from '@/server/domain/members/invitations';
import { listMembers } from '@/server/domain/members/list-members';
import { issuePasswordReset } from '@/server/domain/members/password-resets';
import { removeMember } from '@/server/domain/members/remove-member';
import { ChangeRoleInput, CreateInvitationInput } from '@/server/domain/members/schemas';
import { ListQuery } from '@/server/lib/schemas';
import { adminProcedure, createTRPCRouter, dashboardPage, IdInput } from '@/server/trpc/init';

const UserIdInput = z.object({ userId: z.string().min(1).max(100) });

export const teamRouter = createTRPCRouter({
  members: adminProcedure.query(({ ctx }) => listMembers(ctx)),
  changeRole: adminProcedure
    .input(UserIdInput.extend(ChangeRoleInput.shape))
    .mutation(({ ctx, input }) => changeMemberRole(ctx, { user_id: input.userId, role: input.role })),
  remove: adminProcedure.input(UserIdInput).mutation(async ({ ctx, input }) => {
    await removeMember(ctx, { user_id: input.userId });
    return { userId: input.userId, removed: true as const };
  }),
  passwordReset: adminProcedure
    .input(UserIdInput)
    .mutation(({ ctx, input }) => issuePasswordReset(ctx, { user_id: input.userId })),
  invitations: adminProcedure
    .input(ListQuery.partial().extend(dashboardPage(100)))
    .query(({ ctx, input }) => listInvitations(ctx, input)),
  invite: adminProcedure
    .input(CreateInvitationInput)
    .mutation(({ ctx, input }) => createInvitation(ctx, input)),
  revokeInvitation: adminProcedure.input(IdInput).mutation(async ({ ctx, input }) => {
    await revokeInvitation(ctx, input);
    return { id: input.id, revoked: true as const };
  }),
});
