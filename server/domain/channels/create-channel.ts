import type { z } from 'zod';
import type { CreateChannelInput } from '@/server/domain/channels/schemas';
import type { OperationContext } from '@/server/domain/context';
import { AppError } from '@/server/lib/errors';
import { verifyPhoneNumberAccess } from '@/server/whatsapp/graph-client';
import { registerChannel } from './register-channel';

/**
 * Registers a tenant's WhatsApp number. The access token must be able to read the number at the
 * Graph API (422 channel_verification_failed otherwise), so nobody claims a number with a made-up
 * token; it is encrypted at rest. A phone_number_id routes inbound traffic to exactly one tenant,
 * so it is unique across tenants (409).
 */
export async function createChannel(ctx: OperationContext, input: z.output<typeof CreateChannelInput>) {
  const access = await verifyPhoneNumberAccess({
    phoneNumberId: input.phone_number_id,
    accessToken: input.access_token,
  });
  if (!access.ok) {
    throw new AppError(
      'channel_verification_failed',
      `The access token cannot read this phone number at the WhatsApp API: ${access.reason}`,
      { errors: [{ path: 'access_token', message: access.reason }] },
    );
  }
  return registerChannel(ctx, input);
}
