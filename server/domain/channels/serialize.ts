import type { Channel } from '@/server/db/generated/client';

/** A channel as the API shows it: never the access token. */
export function serializeChannel(c: Channel) {
  return {
    id: c.id,
    type: c.type,
    phone_number_id: c.phoneNumberId,
    display_name: c.displayName,
    created_at: c.createdAt.toISOString(),
  };
}

export type ChannelResource = ReturnType<typeof serializeChannel>;
