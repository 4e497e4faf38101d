import { db } from '@/server/db/client';

/**
 * Inbound WhatsApp traffic names a phone_number_id, not a tenant: this lookup is across tenants
 * by design (the id is unique), and the caller continues through forTenant(channel.tenantId).
 */
export function findChannelByPhoneNumberId(phoneNumberId: string) {
  return db().channel.findUnique({ where: { phoneNumberId } });
}
