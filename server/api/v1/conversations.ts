import { listOf } from '@/server/api/schemas/common';
import { assignConversation } from '@/server/domain/conversations/assign-conversation';
import { createConversation } from '@/server/domain/conversations/create-conversation';
import { getConversation } from '@/server/domain/conversations/get-conversation';
import { handoffConversation } from '@/server/domain/conversations/handoff-conversation';
import { listConversations } from '@/server/domain/conversations/list-conversations';
import { listMessages } from '@/server/domain/conversations/list-messages';
import { openMessageMedia } from '@/server/domain/conversations/open-message-media';
import { resolveConversation } from '@/server/domain/conversations/resolve-conversation';
import {
  AssignInput,
  Conversation,
  ConversationListQuery,
  CreateConversationInput,
  HandoffInput,
  Message,
  SendMessageInput,
} from '@/server/domain/conversations/schemas';
import { sendMessage } from '@/server/domain/conversations/send-message';
import { offerTimes } from '@/server/domain/offers/offer-times';
import { Offer, OfferInput } from '@/server/domain/offers/schemas';
import { mediaHeaders } from '@/server/http/media-response';
import { json, tenantRoute } from '@/server/http/route';
import { ListQuery } from '@/server/lib/schemas';

const tag = 'Conversations';
const STATES =
  'States: open (AI or an assigned person) → pending_human (hand-off queue) → open (assigned) → resolved; ' +
  'a new inbound message reopens a resolved conversation for the AI.';

export const conversationRoutes = [
  tenantRoute({
    method: 'GET',
    path: '/conversations',
    operationId: 'listConversations',
    tag,
    permission: 'conversations.read',
    summary: "List the tenant's conversations",
    description: 'Filters: status, handled_by, assignee_id. The hand-off queue is ?status=pending_human.',
    query: ConversationListQuery,
    responses: {
      200: { description: 'One page, newest first', schema: listOf(Conversation, 'ConversationList') },
    },
    handler: async ({ ctx, query }) => json(200, await listConversations(ctx, query)),
  }),
  tenantRoute({
    method: 'POST',
    path: '/conversations',
    operationId: 'createConversation',
    tag,
    permission: 'conversations.write',
    summary: 'Start a conversation',
    description:
      'Inbound WhatsApp messages start conversations by themselves; this starts one from your side. ' +
      'whatsapp needs channel_id (a WhatsApp channel of this tenant) and contact.phone; web and sms have ' +
      'no sender configured on this service, so outbound messages on them fail with a reason. Emits ' +
      'conversation.created.',
    body: CreateConversationInput,
    responses: { 201: { description: 'Created', schema: Conversation } },
    handler: async ({ ctx, body }) => json(201, await createConversation(ctx, body)),
  }),
  tenantRoute({
    method: 'GET',
    path: '/conversations/{id}',
    operationId: 'getConversation',
    tag,
    permission: 'conversations.read',
    summary: 'Read a conversation',
    responses: { 200: { description: 'The conversation', schema: Conversation } },
    handler: async ({ ctx, params }) => json(200, await getConversation(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'GET',
    path: '/conversations/{id}/messages',
    operationId: 'listConversationMessages',
    tag,
    permission: 'conversations.read',
    summary: "List a conversation's messages",
    query: ListQuery,
    responses: { 200: { description: 'One page, newest first', schema: listOf(Message, 'MessageList') } },
    handler: async ({ ctx, params, query }) =>
      json(200, await listMessages(ctx, { id: params.id, ...query })),
  }),
  tenantRoute({
    method: 'GET',
    path: '/conversations/{id}/messages/{message_id}/media',
    operationId: 'getMessageMedia',
    tag,
    permission: 'conversations.read',
    // A file, not JSON: the dashboard reads it here too, with its session (/api/dashboard/v1/…).
    restOnly: true,
    summary: "Download an inbound message's file",
    description:
      'Streams the image, video, audio, document or sticker of an inbound WhatsApp message, fetched from ' +
      "the Graph API with the channel's token at the moment of the request (the token is never exposed). " +
      'Content-Type is the file’s; images, audio and video are sent `inline`, anything else as an ' +
      '`attachment`, always under a sandboxing Content-Security-Policy. A message without a file gets 404; ' +
      'a file Meta does not hand over, or one larger than WHATSAPP_MEDIA_MAX_BYTES (default 100 MB), gets ' +
      '502 media_unavailable.',
    responses: { 200: { description: 'The file', stream: true } },
    errors: [502],
    handler: async ({ ctx, params }) => {
      const file = await openMessageMedia(ctx, { conversationId: params.id, messageId: params.message_id });
      return { status: 200 as const, body: file.stream, headers: mediaHeaders(file) };
    },
  }),
  tenantRoute({
    method: 'POST',
    path: '/conversations/{id}/messages',
    operationId: 'sendConversationMessage',
    tag,
    permission: 'conversations.write',
    summary: 'Send a message to the contact',
    description:
      'Exactly one of `text`, `template` (an approved WhatsApp template, allowed at any time) or `media` ' +
      '(an https `link` WhatsApp fetches). On WhatsApp, `text` and `media` need the customer service window ' +
      'open (`window_expires_at` in the future): otherwise 422 outside_customer_service_window, and nothing ' +
      "is stored or sent. Stored as queued, then sent through the conversation's WhatsApp channel (Cloud " +
      'API). The answer is the message after the attempt: sent with external_id ' +
      '(conversation.message.sent), or failed with failure_reason (conversation.message.failed) when the ' +
      'provider refuses (Meta’s 131047 "re-engagement" refusal also closes the window), times out (10 s) or ' +
      'no sender is configured. When Meta answers with its rate limit (130429) the message stays queued and ' +
      'is sent again after 2 s, 4 s, … 512 s; only then does it fail. Later delivery and read receipts move ' +
      'it forward.',
    body: SendMessageInput,
    responses: { 201: { description: 'The message (sent, failed, or queued for a retry)', schema: Message } },
    handler: async ({ ctx, params, body }) => json(201, await sendMessage(ctx, { id: params.id, ...body })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/conversations/{id}/offers',
    operationId: 'offerTimes',
    tag,
    permission: 'conversations.write',
    summary: 'Offer free times of a service on WhatsApp',
    description:
      'Sends one WhatsApp interactive list message of the service’s free times (as GET /slots finds them) over ' +
      '`days` local days from `date` in `time_zone`: at most 10 times in all, spread across each day, one ' +
      'section per day. Each row’s id is random (`options[].id`) and resolved only by the service. The ' +
      'customer’s tap holds that time at once (a pending booking of the contact, `conversation_id` set, held ' +
      'for OFFER_HOLD, default 10 min, or PAYMENT_HOLD with a Stripe Checkout link for a paid service) and is ' +
      'answered with Confirm and Other times buttons; a later tap on the same offer moves that booking, never ' +
      'makes a second one; a time taken meanwhile, or an offer past `expires_at` (OFFER_TTL, default 24 h), ' +
      'gets a new offer. With `booking_id` (a pending or confirmed booking of the contact, of this service) a ' +
      'tap moves that booking instead. The window must be open: 422 outside_customer_service_window; no free ' +
      'time: 409 no_free_slots; either way nothing is stored or sent. The answer is the offer once its message ' +
      'was handed to WhatsApp (the message shows whether it was sent). docs/integrators.md “Booking inside ' +
      'WhatsApp” follows the whole flow.',
    body: OfferInput,
    responses: { 201: { description: 'The offer sent', schema: Offer } },
    errors: [409],
    handler: async ({ ctx, params, body }) =>
      json(201, await offerTimes(ctx, { conversationId: params.id, ...body })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/conversations/{id}/handoff',
    operationId: 'handoffConversation',
    tag,
    permission: 'conversations.write',
    summary: 'Hand the conversation from the AI to a person',
    description:
      `Only an open conversation handled by the AI (else 409 invalid_transition). It becomes ` +
      `pending_human, handled_by human, keeping reason and summary. Emits conversation.handoff.requested. ` +
      `${STATES}`,
    body: HandoffInput,
    responses: { 200: { description: 'The conversation', schema: Conversation } },
    handler: async ({ ctx, params, body }) =>
      json(
        200,
        await handoffConversation(ctx, {
          id: params.id,
          reason: body.reason,
          summary: body.summary,
        }),
      ),
  }),
  tenantRoute({
    method: 'POST',
    path: '/conversations/{id}/assign',
    operationId: 'assignConversation',
    tag,
    permission: 'conversations.write',
    summary: 'Assign the conversation to a team member',
    description:
      `user_id must be a member of this tenant (422). An open or pending_human conversation becomes open, ` +
      `handled_by human, with that assignee; reassigning is allowed; a resolved one answers 409. Emits ` +
      `conversation.assigned. ${STATES}`,
    body: AssignInput,
    responses: { 200: { description: 'The conversation', schema: Conversation } },
    handler: async ({ ctx, params, body }) =>
      json(200, await assignConversation(ctx, { id: params.id, userId: body.user_id })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/conversations/{id}/resolve',
    operationId: 'resolveConversation',
    tag,
    permission: 'conversations.write',
    summary: 'Resolve the conversation',
    description: `Emits conversation.resolved; an already resolved conversation answers 409. ${STATES}`,
    responses: { 200: { description: 'The conversation', schema: Conversation } },
    handler: async ({ ctx, params }) => json(200, await resolveConversation(ctx, { id: params.id })),
  }),
];
