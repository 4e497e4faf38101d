// Outbound messages Meta's rate limit held back (send-message.ts) are sent again once their
// `next_send_at` has come. A message is claimed by moving `next_send_at` past the time one send can
// take, so instances running this at once never send the same message together, and a claim of an
// instance that died lapses by itself.
import { db } from '@/server/db/client';
import { forTenant } from '@/server/db/tenant-scope';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { attemptSend } from './send-message';

const CLAIM_MS = 60_000; // the Graph API call gives up after 10 s

export async function sendScheduledMessages(now = new Date()): Promise<number> {
  // Across tenants by design (a maintenance pass); each send then goes through its tenant's scope.
  const due = await db().message.findMany({
    where: { status: 'queued', nextSendAt: { lte: now } },
    select: { id: true, tenantId: true, nextSendAt: true },
    orderBy: { nextSendAt: 'asc' },
    take: 100,
  });
  let sent = 0;
  for (const { id, tenantId, nextSendAt } of due) {
    const [claimed] = await forTenant(tenantId).message.updateManyAndReturn({
      where: { id, status: 'queued', nextSendAt },
      data: { nextSendAt: new Date(now.getTime() + CLAIM_MS) },
    });
    if (!claimed) continue; // another instance took it
    const result = await attemptSend(operationContext(tenantId, SYSTEM_ACTOR), claimed);
    if (result.status === 'sent') sent++;
  }
  return sent;
}
