import { z } from 'zod';
import { ListQuery } from '@/server/api/schemas/common';
import { ConversationListQuery } from '@/server/api/schemas/conversations';
import { assignConversation } from '@/server/domain/conversations/assign-conversation';
import { listConversations } from '@/server/domain/conversations/list-conversations';
import { listMessages } from '@/server/domain/conversations/list-messages';
import { resolveConversation } from '@/server/domain/conversations/resolve-conversation';
import { createTRPCRouter, dashboardPage, IdInput, protectedProcedure } from '@/server/trpc/init';

/** Conversations and the hand-off queue (status pending_human), for admins and agents. */
export const conversationsRouter = createTRPCRouter({
  list: protectedProcedure
    .input(ConversationListQuery.partial().extend(dashboardPage(50)))
    .query(({ ctx, input }) => listConversations(ctx.db, input)),
  handoffQueue: protectedProcedure
    .input(ListQuery.partial().extend(dashboardPage(50)))
    .query(({ ctx, input }) => listConversations(ctx.db, { ...input, status: 'pending_human' })),
  messages: protectedProcedure
    .input(
      IdInput.extend({ limit: z.number().int().min(1).max(100).default(20), cursor: z.string().optional() }),
    )
    .query(({ ctx, input }) => listMessages(ctx.db, ctx.tenantId, input)),
  /** The signed-in user takes the conversation over from the assistant. */
  assignToMe: protectedProcedure
    .input(IdInput)
    .mutation(({ ctx, input }) =>
      assignConversation(ctx.db, ctx.tenantId, { id: input.id, userId: ctx.userId }),
    ),
  resolve: protectedProcedure
    .input(IdInput)
    .mutation(({ ctx, input }) => resolveConversation(ctx.db, ctx.tenantId, input)),
});
