// Stores a channel whose access token is already trusted: by createChannel after the Graph API
// check, or by the demo seed for its placeholder number that is not connected to Meta.
import type { z } from 'zod';
import { Prisma } from '@/server/db/generated/client';
import { audited } from '@/server/domain/audit/record-audit';
import type { CreateChannelInput } from '@/server/domain/channels/schemas';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { encryptSecret } from '@/server/security/secret-box';
import { serializeChannel } from './serialize';

async function registerChannelUnaudited(ctx: OperationContext, input: z.output<typeof CreateChannelInput>) {
  const { db, tenantId } = ctx;
  try {
    const row = await db.channel.create({
      data: {
        id: newId('channel'),
        tenantId,
        type: input.type,
        phoneNumberId: input.phone_number_id,
        accessTokenEnc: encryptSecret(input.access_token),
        displayName: input.display_name ?? null,
      },
    });
    return serializeChannel(row);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw Errors.conflict('phone_number_id_taken', 'This phone_number_id is already registered');
    }
    throw error;
  }
}

/** registerChannel, in one transaction with its audit entry (channel.created). */
export const registerChannel = audited(registerChannelUnaudited, (_input, channel) => ({
  action: 'channel.created',
  target: { type: 'channel', id: channel.id },
}));
