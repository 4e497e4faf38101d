import type { z } from 'zod';
import type { CreateChannelBody } from '@/server/api/schemas/channels';
import { Prisma } from '@/server/db/generated/client';
import type { TenantDb } from '@/server/db/tenant-scope';
import { Errors } from '@/server/http/errors';
import { newId } from '@/server/lib/ids';
import { encryptSecret } from '@/server/security/secret-box';
import { serializeChannel } from './serialize';

/**
 * Registers a tenant's WhatsApp number. The access token is encrypted at rest. A phone_number_id
 * routes inbound traffic to exactly one tenant, so it is unique across tenants (409).
 */
export async function createChannel(
  db: TenantDb,
  tenantId: string,
  input: z.output<typeof CreateChannelBody>,
) {
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
