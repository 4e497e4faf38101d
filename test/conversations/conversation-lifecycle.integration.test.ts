import { describe, expect, it } from 'vitest';
import { givenConversation } from '../support/builders';
import { eventsOf, expectProblemCode } from '../support/domain-fixtures';
import { apiSuite } from '../support/harness';
import { createTestUser } from '../support/helpers';

const { tenant: a, other: b, newTenant } = apiSuite({ other: true, agent: true });

describe('create and read', () => {
  it('starts a conversation handled by the AI and records conversation.created', async () => {
    const res = await a.agent('POST', '/conversations', {
      body: { channel: 'sms', contact: { name: 'Sam', phone: '+15550001111' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      channel: 'sms',
      channel_id: null,
      contact: { name: 'Sam', phone: '+15550001111' },
      status: 'open',
      handled_by: 'ai',
      assignee_id: null,
      last_message_at: null,
    });
    expect(res.body.id).toMatch(/^cnv_/);
    const [event] = await eventsOf(a.tenantId, { type: 'conversation.created', objectId: res.body.id });
    expect(event.data).toEqual({ object: res.body });
    expect((await a.agent('GET', `/conversations/${res.body.id}`)).body).toEqual(res.body);
  });

  it('needs a WhatsApp channel and phone for a WhatsApp conversation', async () => {
    const res = await a.agent('POST', '/conversations', { body: { channel: 'whatsapp', contact: {} } });
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'channel_id',
      'contact.phone',
    ]);
    const web = await a.agent('POST', '/conversations', {
      body: { channel: 'web', channel_id: 'chn_x', contact: {} },
    });
    expectProblemCode(web, 422, 'validation_failed');
  });

  it('pages messages newest first', async () => {
    const { id } = await givenConversation(a.agent);
    const sent: string[] = [];
    for (const text of ['one', 'two', 'three']) {
      sent.push((await a.agent('POST', `/conversations/${id}/messages`, { body: { text } })).body.id);
    }
    const p1 = await a.agent('GET', `/conversations/${id}/messages?limit=2`);
    expect(p1.body.data.map((m: { text: string }) => m.text)).toEqual(['three', 'two']);
    const p2 = await a.agent('GET', `/conversations/${id}/messages?limit=2&cursor=${p1.body.next_cursor}`);
    expect(p2.body).toEqual({
      data: [expect.objectContaining({ id: sent[0], text: 'one' })],
      next_cursor: null,
    });
    expect((await a.agent('GET', `/conversations/${id}`)).body.last_message_at).not.toBeNull();
    expectProblemCode(
      await a.agent('POST', `/conversations/${id}/messages`, { body: { text: '   ' } }),
      422,
      'validation_failed',
    );
  });
});

describe('hand-off, assignment and resolution', () => {
  it('hands off to a person, keeping reason and summary, and lands in the hand-off queue', async () => {
    const { id } = await givenConversation(a.agent);
    const res = await a.agent('POST', `/conversations/${id}/handoff`, {
      body: { reason: 'Asks about a refund', summary: 'Customer was double charged on 3 Nov.' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'pending_human',
      handled_by: 'human',
      handoff_reason: 'Asks about a refund',
      handoff_summary: 'Customer was double charged on 3 Nov.',
    });
    const [event] = await eventsOf(a.tenantId, { type: 'conversation.handoff.requested', objectId: id });
    expect(event.data.object).toEqual(res.body);
    const queue = await a.agent('GET', '/conversations?status=pending_human');
    expect(queue.body.data.map((c: { id: string }) => c.id)).toContain(id);
    expect(queue.body.data.every((c: { status: string }) => c.status === 'pending_human')).toBe(true);
  });

  it('assigns to a member: open, handled by a person, out of the queue', async () => {
    const { id } = await givenConversation(a.agent);
    await a.agent('POST', `/conversations/${id}/handoff`, { body: { reason: 'human please' } });
    const res = await a.agent('POST', `/conversations/${id}/assign`, { body: { user_id: a.agentUserId } });
    expect(res.body).toMatchObject({
      status: 'open',
      handled_by: 'human',
      assignee_id: a.agentUserId,
      handoff_reason: 'human please',
    });
    const [event] = await eventsOf(a.tenantId, { type: 'conversation.assigned', objectId: id });
    expect(event.data.object).toEqual(res.body);
    const mine = await a.agent('GET', `/conversations?assignee_id=${a.agentUserId}&handled_by=human`);
    expect(mine.body.data.map((c: { id: string }) => c.id)).toContain(id);
    const queue = await a.agent('GET', '/conversations?status=pending_human&limit=100');
    expect(queue.body.data.map((c: { id: string }) => c.id)).not.toContain(id);
    // Reassigning is allowed and emits again.
    const other = await createTestUser(a.tenantId, 'admin');
    expect(
      (await a.agent('POST', `/conversations/${id}/assign`, { body: { user_id: other.userId } })).body
        .assignee_id,
    ).toBe(other.userId);
    expect(await eventsOf(a.tenantId, { type: 'conversation.assigned', objectId: id })).toHaveLength(2);
  });

  it('refuses to assign to someone outside the tenant (422)', async () => {
    const { id } = await givenConversation(a.agent);
    for (const userId of [b.adminUserId, 'usr_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q']) {
      const res = await a.agent('POST', `/conversations/${id}/assign`, { body: { user_id: userId } });
      expectProblemCode(res, 422, 'validation_failed');
      expect(res.body.errors[0].path).toBe('user_id');
    }
    expect((await a.agent('GET', `/conversations/${id}`)).body.assignee_id).toBeNull();
  });

  it('resolves, and refuses to hand off, assign or resolve again (409) without events', async () => {
    const { id } = await givenConversation(a.agent);
    const res = await a.agent('POST', `/conversations/${id}/resolve`);
    expect(res.body.status).toBe('resolved');
    const [event] = await eventsOf(a.tenantId, { type: 'conversation.resolved', objectId: id });
    expect(event.data.object).toEqual(res.body);
    const count = (await eventsOf(a.tenantId, { objectId: id })).length;
    expectProblemCode(await a.agent('POST', `/conversations/${id}/resolve`), 409, 'invalid_transition');
    expectProblemCode(
      await a.agent('POST', `/conversations/${id}/handoff`, { body: { reason: 'x' } }),
      409,
      'invalid_transition',
    );
    expectProblemCode(
      await a.agent('POST', `/conversations/${id}/assign`, { body: { user_id: a.agentUserId } }),
      409,
      'invalid_transition',
    );
    expect(await eventsOf(a.tenantId, { objectId: id })).toHaveLength(count);
    expect((await a.agent('GET', `/conversations/${id}`)).body).toEqual(res.body);
  });

  it('refuses a second hand-off, and a hand-off of a conversation a person already handles', async () => {
    const { id: waiting } = await givenConversation(a.agent);
    await a.agent('POST', `/conversations/${waiting}/handoff`, { body: { reason: 'x' } });
    expectProblemCode(
      await a.agent('POST', `/conversations/${waiting}/handoff`, { body: { reason: 'y' } }),
      409,
      'invalid_transition',
    );
    const { id: assigned } = await givenConversation(a.agent);
    await a.agent('POST', `/conversations/${assigned}/assign`, { body: { user_id: a.agentUserId } });
    expectProblemCode(
      await a.agent('POST', `/conversations/${assigned}/handoff`, { body: { reason: 'y' } }),
      409,
      'invalid_transition',
    );
    // A waiting conversation can be resolved straight away.
    expect((await a.agent('POST', `/conversations/${waiting}/resolve`)).body.status).toBe('resolved');
  });

  it('lets one of two concurrent changes win', async () => {
    const { id } = await givenConversation(a.agent);
    const [x, y] = await Promise.all([
      a.agent('POST', `/conversations/${id}/resolve`),
      a.agent('POST', `/conversations/${id}/resolve`),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    expect(await eventsOf(a.tenantId, { type: 'conversation.resolved', objectId: id })).toHaveLength(1);
  });

  it('validates the hand-off body', async () => {
    const { id } = await givenConversation(a.agent);
    expectProblemCode(
      await a.agent('POST', `/conversations/${id}/handoff`, { body: {} }),
      422,
      'validation_failed',
    );
  });
});

describe('list', () => {
  it('filters by status and handled_by and pages newest first', async () => {
    const t = await newTenant('List');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await givenConversation(t.agent)).id);
    await t.agent('POST', `/conversations/${ids[0]}/handoff`, { body: { reason: 'x' } });
    await t.agent('POST', `/conversations/${ids[1]}/resolve`);
    const p1 = await t.agent('GET', '/conversations?limit=2');
    expect(p1.body.data.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    const p2 = await t.agent('GET', `/conversations?limit=2&cursor=${p1.body.next_cursor}`);
    expect(p2.body.data.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect(
      (await t.agent('GET', '/conversations?status=resolved')).body.data.map((c: { id: string }) => c.id),
    ).toEqual([ids[1]]);
    expect(
      (await t.agent('GET', '/conversations?handled_by=human')).body.data.map((c: { id: string }) => c.id),
    ).toEqual([ids[0]]);
    expect(
      (await t.agent('GET', '/conversations?handled_by=ai')).body.data.map((c: { id: string }) => c.id),
    ).toEqual([ids[2], ids[1]]);
    expectProblemCode(await t.agent('GET', '/conversations?handled_by=robot'), 422, 'validation_failed');
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another tenant's conversation on every route and changes nothing", async () => {
    const { id } = await givenConversation(b.agent);
    const before = (await b.agent('GET', `/conversations/${id}`)).body;
    expectProblemCode(await a.admin('GET', `/conversations/${id}`), 404, 'not_found');
    expectProblemCode(await a.admin('GET', `/conversations/${id}/messages`), 404, 'not_found');
    expectProblemCode(
      await a.admin('POST', `/conversations/${id}/messages`, { body: { text: 'x' } }),
      404,
      'not_found',
    );
    expectProblemCode(
      await a.admin('POST', `/conversations/${id}/handoff`, { body: { reason: 'x' } }),
      404,
      'not_found',
    );
    expectProblemCode(
      await a.admin('POST', `/conversations/${id}/assign`, { body: { user_id: a.agentUserId } }),
      404,
      'not_found',
    );
    expectProblemCode(await a.admin('POST', `/conversations/${id}/resolve`), 404, 'not_found');
    expect(
      (await a.admin('GET', '/conversations?limit=100')).body.data.map((c: { id: string }) => c.id),
    ).not.toContain(id);
    expect((await b.agent('GET', `/conversations/${id}`)).body).toEqual(before);
    expect((await b.agent('GET', `/conversations/${id}/messages`)).body.data).toEqual([]);
  });
});
