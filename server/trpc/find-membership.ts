// The membership check behind a tenant switch. Its own module so that auth-options.ts (which needs
// it) and membership.ts (which needs authOptions) do not import each other. Memberships are looked
// up across tenants on purpose (this is the authorisation check itself), so it uses the unscoped
// client.
import { db } from '@/server/db/client';
import { isUuid } from '@/server/lib/ids';

export async function findMembership(userId: string, tenantId: string) {
  if (!isUuid(tenantId)) return null;
  return db().membership.findUnique({ where: { tenantId_userId: { tenantId, userId } } });
}
