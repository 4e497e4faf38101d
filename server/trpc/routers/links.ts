// The public pages behind one-time links: /invite/<token> and /reset-password/<token>. No session
// is needed (the token is the credential); an unknown, used, revoked or expired token is simply
// "no longer valid". Accepting an existing user's invitation checks their password like a login
// (counted and rate limited per address).
import { z } from 'zod';
import { acceptInvitation, lookupInvitation } from '@/server/domain/members/invitations';
import { completePasswordReset, lookupPasswordReset } from '@/server/domain/members/password-resets';
import {
  AcceptInvitationInput,
  CompletePasswordResetInput,
  LinkToken,
} from '@/server/domain/members/schemas';
import { createTRPCRouter, publicProcedure } from '@/server/trpc/init';

const TokenInput = z.object({ token: LinkToken });

export const linksRouter = createTRPCRouter({
  invitation: publicProcedure.input(TokenInput).query(({ input }) => lookupInvitation(input.token)),
  acceptInvitation: publicProcedure
    .input(AcceptInvitationInput)
    .mutation(({ ctx, input }) => acceptInvitation({ ...input, ip: ctx.clientAddress ?? 'unknown' })),
  passwordReset: publicProcedure.input(TokenInput).query(({ input }) => lookupPasswordReset(input.token)),
  completePasswordReset: publicProcedure
    .input(CompletePasswordResetInput)
    .mutation(({ ctx, input }) => completePasswordReset({ ...input, ip: ctx.clientAddress ?? 'unknown' })),
});
