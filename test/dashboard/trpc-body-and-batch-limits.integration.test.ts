// /api/trpc keeps REST's limits: a body is read through a 1 MiB limit as it streams, a batch holds at
// most TRPC_MAX_BATCH calls, and a signed-out request to a protected procedure is answered unread.
// Parallel uses of one invitation or password reset link hash one password, not one each.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWebSession } from '@/server/auth/web-sessions';
import { resetSettingsCache } from '@/server/config/settings';
import { acceptInvitation } from '@/server/domain/members/invitations';
import { MAX_BODY_BYTES } from '@/server/http/body';
import { hashPassword } from '@/server/security/hashing';
import { handleTrpcRequest, TRPC_MAX_BATCH } from '@/server/trpc/http-handler';
import { viewerFromSession } from '@/server/trpc/membership';
import {
  freshAddress,
  outcome,
  personWithResetLink,
  publicCaller,
  tally,
  tokenOf,
  uniqueEmail,
} from '../support/account-fixtures';
import { apiSuite } from '../support/harness';

// Counts argon2 hashes: the real function, wrapped.
vi.mock('@/server/security/hashing', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/server/security/hashing')>();
  return { ...real, hashPassword: vi.fn(real.hashPassword) };
});

beforeAll(() => {
  Object.assign(process.env, { API_RATE_LIMIT_PER_SECOND: '0' });
  resetSettingsCache();
});
afterAll(() => {
  delete process.env.API_RATE_LIMIT_PER_SECOND;
  resetSettingsCache();
});
const suite = apiSuite({ tenant: false });

describe('security finding 5: unbounded tRPC bodies and batches', () => {
  // The same limits through the real route of the production build: e2e/security.spec.ts.
  const CHUNK = 64 * 1024;

  /** A request body that counts what is read of it; `chunks: Infinity` never ends. */
  function countedBody(chunks: number, fill = 'x') {
    const chunk = new TextEncoder().encode(fill.repeat(CHUNK));
    const read = { bytes: 0 };
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= chunks) return controller.close();
        sent++;
        read.bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    return { stream, read };
  }

  async function viewerContext(signedIn: boolean) {
    const t = await suite.newTenant('trpc-limits');
    const viewer = signedIn
      ? await viewerFromSession({
          user: { id: t.adminUserId, email: t.adminEmail, name: 'Admin' },
          tenantId: t.tenantId,
          sid: await startWebSession(t.adminUserId),
        })
      : null;
    return async () => ({ viewer, requestId: 'req_test', clientAddress: '203.0.113.50' });
  }

  function trpcPost(
    path: string,
    body: ReadableStream<Uint8Array> | string,
    headers: Record<string, string> = {},
  ) {
    return new Request(`http://dashboard.test/api/trpc/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      duplex: 'half',
    } as RequestInit);
  }

  async function trpcError(response: Response) {
    const body = (await response.json()) as
      | { error: { data: { code: string; httpStatus: number; apiCode: string | null } } }
      | { error: { data: { code: string; httpStatus: number; apiCode: string | null } } }[];
    return (Array.isArray(body) ? body : [body]).map((item) => item.error.data);
  }

  it('refuses a body over 1 MiB with 413 in tRPC’s error shape, whatever Content-Length says', async () => {
    const createContext = await viewerContext(true);
    const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });
    const declared = await handleTrpcRequest(trpcPost('apiKeys.createApiKey', big), createContext);
    expect(declared.status).toBe(413);
    expect(await trpcError(declared)).toEqual([
      expect.objectContaining({ code: 'PAYLOAD_TOO_LARGE', httpStatus: 413, apiCode: 'payload_too_large' }),
    ]);

    // Streamed without a length (chunked), and endless: read up to the limit, then refused.
    const endless = countedBody(Number.POSITIVE_INFINITY);
    const streamed = await handleTrpcRequest(trpcPost('apiKeys.createApiKey', endless.stream), createContext);
    expect(streamed.status).toBe(413);
    expect(endless.read.bytes).toBeLessThanOrEqual(MAX_BODY_BYTES + 2 * CHUNK);

    // A Content-Length that lies (small) does not help either.
    const liar = countedBody(40);
    const lying = await handleTrpcRequest(
      trpcPost('apiKeys.createApiKey', liar.stream, { 'content-length': '100' }),
      createContext,
    );
    expect(lying.status).toBe(413);
  });

  it('refuses every call of a batch whose body is too large, and answers bodies under the limit', async () => {
    const createContext = await viewerContext(true);
    const input = JSON.stringify({ 0: { name: 'x'.repeat(1024 * 1024) }, 1: { id: 'key_x' } });
    const batch = await handleTrpcRequest(
      trpcPost('apiKeys.createApiKey,apiKeys.revokeApiKey?batch=1', input),
      createContext,
    );
    expect(batch.status).toBe(413);
    expect((await trpcError(batch)).map((e) => e.code)).toEqual(['PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_LARGE']);

    const fits = JSON.stringify({ name: 'x'.repeat(900 * 1024) });
    const validated = await handleTrpcRequest(trpcPost('apiKeys.createApiKey', fits), createContext);
    // Read whole and validated by the route's schema (name too long): 422, as REST answers.
    expect(validated.status).toBe(422);
    expect((await trpcError(validated))[0].code).toBe('UNPROCESSABLE_CONTENT');
  });

  it('does not read the body of a signed-out request to a protected procedure (401 first)', async () => {
    const createContext = await viewerContext(false);
    const endless = countedBody(Number.POSITIVE_INFINITY);
    const response = await handleTrpcRequest(trpcPost('apiKeys.createApiKey', endless.stream), createContext);
    expect(response.status).toBe(401);
    expect(endless.read.bytes).toBeLessThanOrEqual(CHUNK);
  });

  it(`takes at most ${TRPC_MAX_BATCH} calls in one batch (more: 400, none runs)`, async () => {
    const createContext = await viewerContext(true);
    const batchOf = (n: number) => {
      const paths = Array.from({ length: n }, () => 'links.invitation').join(',');
      const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { token: 'x'.repeat(43) }]));
      return new Request(
        `http://dashboard.test/api/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`,
      );
    };
    const allowed = await handleTrpcRequest(batchOf(TRPC_MAX_BATCH), createContext);
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toHaveLength(TRPC_MAX_BATCH);
    const refused = await handleTrpcRequest(batchOf(TRPC_MAX_BATCH + 1), createContext);
    expect(refused.status).toBe(400);
    expect((await trpcError(refused))[0].code).toBe('BAD_REQUEST');
  });

  const hashes = () => vi.mocked(hashPassword).mock.calls.length;

  it('ten parallel uses of one invitation hash one password, not ten', async () => {
    const t = await suite.newTenant('claim-invite');
    const invite = await t.admin('POST', '/invitations', {
      body: { email: uniqueEmail('claim'), role: 'agent' },
    });
    const before = hashes();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        outcome(
          acceptInvitation({
            token: tokenOf(invite.body.url),
            name: 'Claimer',
            password: 'a long enough password',
            ip: freshAddress(),
          }),
        ),
      ),
    );
    expect(tally(results)).toEqual({ ok: 1, not_found: 9 });
    expect(hashes() - before).toBe(1);
  });

  it('ten parallel uses of one password reset link hash one password, not ten', async () => {
    const t = await suite.newTenant('claim-reset');
    const person = await personWithResetLink(t);
    const before = hashes();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        outcome(
          publicCaller().links.completePasswordReset({ token: person.token, password: 'the new password' }),
        ),
      ),
    );
    expect(tally(results)).toEqual({ ok: 1, NOT_FOUND: 9 });
    expect(hashes() - before).toBe(1);
  });
});
