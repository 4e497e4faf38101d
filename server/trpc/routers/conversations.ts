// Conversations and the hand-off queue (status pending_human), for admins and agents.
import { z } from 'zod';
import { assignConversation } from '@/server/domain/conversations/assign-conversation';
import { getConversation } from '@/server/domain/conversations/get-conversation';
import { listConversations } from '@/server/domain/conversations/list-conversations';
import { listMessages } from '@/server/domain/conversations/list-messages';
import { resolveConversation } from '@/server/domain/conversations/resolve-conversation';
import { ConversationListQuery, SendMessageInput } from '@/server/domain/conversations/schemas';
import { sendMessage } from '@/server/domain/conversations/send-message';
import { ListQuery } from '@/server/lib/schemas';
import { createTRPCRouter, dashboardPage, IdInput, protectedProcedure } from '@/server/trpc/init';

export const conversationsRouter = createTRPCRouter({
  list: protectedProcedure
    .input(ConversationListQuery.partial().extend(dashboardPage(50)))
    .query(({ ctx, input }) => listConversations(ctx, input)),
  handoffQueue: protectedProcedure
    .input(ListQuery.partial().extend(dashboardPage(50)))
    .query(({ ctx, input }) => listConversations(ctx, { ...input, status: 'pending_human' })),
  get: protectedProcedure.input(IdInput).query(({ ctx, input }) => getConversation(ctx, input)),
  /** A reply from the agent's screen: text or media inside the window, a template at any time. */
  send: protectedProcedure
    .input(IdInput.extend({ message: SendMessageInput }))
    .mutation(({ ctx, input }) => sendMessage(ctx, { id: input.id, ...input.message })),
  messages: protectedProcedure
    .input(
      IdInput.extend({ limit: z.number().int().min(1).max(100).default(20), cursor: z.string().optional() }),
    )
    .query(({ ctx, input }) => listMessages(ctx, input)),
  /** The signed-in user takes the conversation over from the assistant. */
  assignToMe: protectedProcedure
    .input(IdInput)
    .mutation(({ ctx, input }) => assignConversation(ctx, { id: input.id, userId: ctx.userId })),
  resolve: protectedProcedure.input(IdInput).mutation(({ ctx, input }) => resolveConversation(ctx, input)),
});
