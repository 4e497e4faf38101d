import { listOf } from '@/server/api/schemas/common';
import { createChannel } from '@/server/domain/channels/create-channel';
import { deleteChannel } from '@/server/domain/channels/delete-channel';
import { listChannels } from '@/server/domain/channels/list-channels';
import { Channel, ChannelListQuery, CreateChannelInput } from '@/server/domain/channels/schemas';
import { json, noContent, tenantRoute } from '@/server/http/route';

const tag = 'Channels';

export const channelRoutes = [
  tenantRoute({
    method: 'POST',
    path: '/channels',
    operationId: 'createChannel',
    tag,
    permission: 'channels.write',
    summary: "Register the tenant's WhatsApp number",
    description:
      'The access token must be able to read the number at the Graph API (GET /{phone_number_id} ' +
      'answers 200), else 422 channel_verification_failed and nothing is claimed. It is stored ' +
      'encrypted and never returned. A phone_number_id can belong to one tenant only ' +
      '(409 phone_number_id_taken). Point the Meta app webhook at /api/v1/channels/whatsapp/webhook.',
    body: CreateChannelInput,
    responses: { 201: { description: 'Registered', schema: Channel } },
    handler: async ({ ctx, body }) => json(201, await createChannel(ctx, body)),
  }),
  tenantRoute({
    method: 'GET',
    path: '/channels',
    operationId: 'listChannels',
    tag,
    permission: 'channels.read',
    summary: "List the tenant's channels",
    query: ChannelListQuery,
    responses: { 200: { description: 'One page, newest first', schema: listOf(Channel, 'ChannelList') } },
    handler: async ({ ctx, query }) => json(200, await listChannels(ctx, query)),
  }),
  tenantRoute({
    method: 'DELETE',
    path: '/channels/{id}',
    operationId: 'deleteChannel',
    tag,
    permission: 'channels.write',
    summary: 'Remove a channel and its token',
    description:
      'Its conversations stay; replies on them fail with a reason, and inbound traffic for the number is ' +
      'acknowledged and ignored.',
    responses: { 204: { description: 'Removed' } },
    handler: async ({ ctx, params }) => {
      await deleteChannel(ctx, { id: params.id });
      return noContent();
    },
  }),
];
