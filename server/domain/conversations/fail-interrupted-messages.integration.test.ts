import { beforeAll, describe, expect, it } from 'vitest';
import { forTenant } from '@/server/db/tenant-scope';
import { newId } from '@/server/lib/ids';
import { eventsOf } from '@/test/support/domain-fixtures';
import { createTestTenant, type TestTenant } from '@/test/support/helpers';
import {
  failInterruptedMessages,
  INTERRUPTED_AFTER_MS,
  INTERRUPTED_REASON,
} from './fail-interrupted-messages';

let a: TestTenant;
let b: TestTenant;
beforeAll(async () => {
  [a, b] = await Promise.all([createTestTenant('A'), createTestTenant('B')]);
});

async function outbound(tenantId: string, status: 'queued' | 'sent', ageMs: number) {
  const db = forTenant(tenantId);
  const conversation = await db.conversation.create({
    data: { id: newId('conversation'), tenantId, channel: 'web' },
  });
  return db.message.create({
    data: {
      id: newId('message'),
      tenantId,
      conversationId: conversation.id,
      direction: 'outbound',
      text: 'hello',
      status,
      createdAt: new Date(Date.now() - ageMs),
    },
  });
}

describe('failInterruptedMessages', () => {
  it('fails outbound messages a crash left queued, in every tenant, with their event', async () => {
    const stuckA = await outbound(a.tenantId, 'queued', INTERRUPTED_AFTER_MS + 60_000);
    const stuckB = await outbound(b.tenantId, 'queued', INTERRUPTED_AFTER_MS + 60_000);
    const inFlight = await outbound(a.tenantId, 'queued', 1_000);
    const sent = await outbound(a.tenantId, 'sent', INTERRUPTED_AFTER_MS + 60_000);

    expect(await failInterruptedMessages()).toBe(2);

    const after = await forTenant(a.tenantId).message.findMany({
      where: { id: { in: [stuckA.id, inFlight.id, sent.id] } },
    });
    const status = Object.fromEntries(after.map((m) => [m.id, [m.status, m.failureReason]]));
    expect(status[stuckA.id]).toEqual(['failed', INTERRUPTED_REASON]);
    expect(status[inFlight.id]).toEqual(['queued', null]);
    expect(status[sent.id]).toEqual(['sent', null]);
    expect((await forTenant(b.tenantId).message.findUniqueOrThrow({ where: { id: stuckB.id } })).status).toBe(
      'failed',
    );

    const events = await eventsOf(a.tenantId, { type: 'conversation.message.failed', objectId: stuckA.id });
    expect(events).toHaveLength(1);
    expect(events[0].data.object).toMatchObject({
      id: stuckA.id,
      status: 'failed',
      failure_reason: INTERRUPTED_REASON,
    });
    expect(await eventsOf(a.tenantId, { objectId: inFlight.id })).toEqual([]);

    // A second pass finds nothing left to do and emits nothing more.
    expect(await failInterruptedMessages()).toBe(0);
    expect(
      await eventsOf(a.tenantId, { type: 'conversation.message.failed', objectId: stuckA.id }),
    ).toHaveLength(1);
  });
});
