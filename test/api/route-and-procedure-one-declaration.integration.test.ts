// One declaration per operation: the dashboard's procedure is derived from the REST route
// (server/trpc/from-route.ts), so the two share the input schema, its limits and field errors, the
// permission and the answer. Changing the route changes both; nothing is declared twice.
import { TRPCError } from '@trpc/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { routes } from '@/server/api/routes';
import { startWebSession } from '@/server/auth/web-sessions';
import { LIMITS } from '@/server/client-safe/limits';
import type { AnyTenantRoute } from '@/server/http/route';
import { viewerFromSession } from '@/server/trpc/membership';
import { createCaller } from '@/server/trpc/root';
import { givenBooking } from '../support/builders';
import { apiSuite } from '../support/harness';

const suite = apiSuite({ agent: true });
const { tenant: a } = suite;

async function callerFor(userId: string) {
  const viewer = await viewerFromSession({
    user: { id: userId, email: 'x@example.test', name: 'X' },
    tenantId: a.tenantId,
    sid: await startWebSession(userId),
  });
  return createCaller({ viewer });
}

function routeNamed(operationId: string): AnyTenantRoute {
  const route = routes.find((r) => r.operationId === operationId);
  if (route?.auth !== 'tenant') throw new Error(`no tenant route ${operationId}`);
  return route;
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const shape = error as TRPCError & { cause?: { code?: string; details?: { errors?: unknown } } };
  return { code: shape.code, apiCode: shape.cause?.code, errors: shape.cause?.details?.errors };
}

const cancel = routeNamed('cancelBooking');
const original = { body: cancel.body, permission: cancel.permission };
afterEach(() => Object.assign(cancel, original));

describe('a REST route and its procedure are one declaration', () => {
  it('share the input schema: the same limit and the same field error', async () => {
    const admin = await callerFor(a.adminUserId);
    const booking = await givenBooking(a.admin);
    const tooLong = 'x'.repeat(LIMITS.cancellationReason + 1);

    const rest = await a.admin('POST', `/bookings/${booking.id}/cancel`, { body: { reason: tooLong } });
    expect(rest.status).toBe(422);
    const procedure = await refusal(admin.bookings.cancelBooking({ id: booking.id, reason: tooLong }));
    expect(procedure).toMatchObject({ code: 'UNPROCESSABLE_CONTENT', apiCode: 'validation_failed' });
    expect(procedure.errors).toEqual(rest.body.errors);

    // At the limit both accept, and answer the same booking.
    const longest = 'x'.repeat(LIMITS.cancellationReason);
    const viaTrpc = await admin.bookings.cancelBooking({ id: booking.id, reason: longest });
    const viaRest = await a.admin('GET', `/bookings/${booking.id}`);
    expect(viaTrpc).toEqual(viaRest.body);
  });

  it('change the route: both transports change', async () => {
    const admin = await callerFor(a.adminUserId);
    const agent = await callerFor(a.agentUserId);
    const booking = await givenBooking(a.admin);

    // A tighter schema on the route object is what both validate against.
    cancel.body = z.object({ reason: z.string().max(3).optional() });
    const rest = await a.admin('POST', `/bookings/${booking.id}/cancel`, { body: { reason: 'four' } });
    expect([rest.status, rest.body.errors?.[0]?.path]).toEqual([422, 'reason']);
    const procedure = await refusal(admin.bookings.cancelBooking({ id: booking.id, reason: 'four' }));
    expect(procedure.errors).toEqual(rest.body.errors);

    // A permission agents lack: 403 forbidden over REST, FORBIDDEN over tRPC.
    cancel.body = original.body;
    cancel.permission = 'payments.write';
    const restAgent = await a.agent('POST', `/bookings/${booking.id}/cancel`, { body: {} });
    expect([restAgent.status, restAgent.body.code]).toEqual([403, 'forbidden']);
    expect((await refusal(agent.bookings.cancelBooking({ id: booking.id }))).code).toBe('FORBIDDEN');

    // Restored, the agent may cancel through either.
    cancel.permission = original.permission;
    expect((await agent.bookings.cancelBooking({ id: booking.id })).status).toBe('cancelled');
  });

  it('take path parameters by their REST names and answer null for a 204', async () => {
    const admin = await callerFor(a.adminUserId);
    const created = await a.admin('POST', '/api-keys', { body: { name: 'twin' } });
    expect(created.status).toBe(201);
    expect(await admin.apiKeys.revokeApiKey({ id: created.body.id })).toBeNull();
    const missing = await refusal(admin.apiKeys.revokeApiKey({} as { id: string }));
    expect(missing).toMatchObject({ code: 'UNPROCESSABLE_CONTENT', errors: [{ path: 'id' }] });
  });
});
