// An outbound message is stored `queued` before the provider is called (send-message.ts). If the
// process dies in between, nothing would ever finish it; this marks such messages `failed` (and
// emits conversation.message.failed) once they are older than any send could take. Whether the
// provider got the message is unknown, and the reason says so.
import { db } from '@/server/db/client';
import { transaction } from '@/server/db/unit-of-work';
import { recordEvent } from '@/server/webhooks/outbox';
import { serializeMessage } from './serialize';

export const INTERRUPTED_AFTER_MS = 5 * 60 * 1000; // the Graph API call gives up after 10 s
export const INTERRUPTED_REASON =
  'Sending was interrupted before the provider answered (the service stopped); the message may not have ' +
  'been delivered';

export async function failInterruptedMessages(now = new Date()): Promise<number> {
  // Across tenants by design (a maintenance pass); each change then goes through its tenant's scope.
  const stale = await db().message.findMany({
    where: {
      direction: 'outbound',
      status: 'queued',
      nextSendAt: null, // held back by Meta's rate limit: send-scheduled-messages sends it again
      createdAt: { lt: new Date(now.getTime() - INTERRUPTED_AFTER_MS) },
    },
    select: { id: true, tenantId: true },
    take: 500,
  });
  let failed = 0;
  for (const { id, tenantId } of stale) {
    failed += await transaction({ tenantId }, async (tx) => {
      const [row] = await (await tx.orm()).message.updateManyAndReturn({
        where: { id, status: 'queued', nextSendAt: null },
        data: { status: 'failed', failureReason: INTERRUPTED_REASON },
      });
      if (!row) return 0; // finished meanwhile
      await recordEvent(tx, { tenantId, type: 'conversation.message.failed', object: serializeMessage(row) });
      return 1;
    });
  }
  return failed;
}
