// Dashboard sessions on the server side. next-auth's cookie is a signed JWT that would stay valid
// for its 12 hours whatever happens; it names a row here instead (`sid`), which signing out revokes,
// so a copied cookie stops working at once (docs/decisions.md "Security").
import { randomUUID } from 'node:crypto';
import { db } from '@/server/db/client';

export const WEB_SESSION_TTL_SECONDS = 12 * 60 * 60;

export async function startWebSession(userId: string): Promise<string> {
  const id = randomUUID();
  await db().webSession.create({
    data: { id, userId, expiresAt: new Date(Date.now() + WEB_SESSION_TTL_SECONDS * 1000) },
  });
  return id;
}

export async function isWebSessionActive(id: string | null | undefined, userId: string): Promise<boolean> {
  if (!id) return false;
  const row = await db().webSession.findUnique({
    where: { id },
    select: { userId: true, expiresAt: true, revokedAt: true },
  });
  return !!row && row.userId === userId && !row.revokedAt && row.expiresAt > new Date();
}

export async function endWebSession(id: string | null | undefined): Promise<void> {
  if (!id) return;
  await db().webSession.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
}
