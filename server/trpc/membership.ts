import { getServerSession, type Session } from 'next-auth';
import { isWebSessionActive } from '@/server/auth/web-sessions';
import { type Permission, permissionsOf } from '@/server/client-safe/permissions';
import { db } from '@/server/db/client';
import type { Role } from '@/server/db/generated/enums';
import { isUuid } from '@/server/lib/ids';
import { authOptions } from './auth-options';

/**
 * Memberships are looked up across tenants on purpose (this is the authorisation check itself),
 * so they use the unscoped client (also in find-membership.ts, the tenant-switch check).
 */
export async function listMemberships(userId: string) {
  return db().membership.findMany({
    where: { userId },
    include: { tenant: true },
    orderBy: { createdAt: 'asc' },
  });
}

export interface Viewer {
  userId: string;
  email: string;
  name: string;
  /** null when signed in but no tenant is chosen yet (or the membership is gone). */
  tenantId: string | null;
  role: Role | null;
  /** What the role may do (server/client-safe/permissions.ts): pages show actions by these, never by role. */
  permissions: Permission[];
  tenantName: string | null;
}

/** The signed-in user with a membership re-checked in the database; null when signed out. */
export async function currentViewer(): Promise<Viewer | null> {
  return viewerFromSession(await getServerSession(authOptions()));
}

/** Never trusts the tenant or role in the cookie: both come from the membership row. */
export async function viewerFromSession(
  session: Pick<Session, 'user' | 'tenantId' | 'sid'> | null,
): Promise<Viewer | null> {
  const userId = session?.user?.id;
  if (!session || !userId) return null;
  // A cookie whose server-side session was ended (signed out) or never existed counts as signed out.
  if (!(await isWebSessionActive(session.sid, userId))) return null;
  const membership =
    session.tenantId && isUuid(session.tenantId)
      ? await db().membership.findUnique({
          where: { tenantId_userId: { tenantId: session.tenantId, userId } },
          include: { tenant: true },
        })
      : null;
  return {
    userId,
    email: session.user.email ?? '',
    name: session.user.name ?? '',
    tenantId: membership?.tenantId ?? null,
    role: membership?.role ?? null,
    permissions: permissionsOf(membership?.role),
    tenantName: membership?.tenant.name ?? null,
  };
}
