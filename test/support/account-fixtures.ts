// Helpers of the tests of password checks, one-time links and tokens (test/auth/, test/dashboard/).
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { AppError } from '@/server/lib/errors';
import { createCaller } from '@/server/trpc/root';
import type { SuiteTenant } from './harness';
import { createTestUser } from './helpers';

export const tokenOf = (url: string) => url.split('/').pop() as string;
/** The dashboard's public pages call these procedures (no session; the address is the client's). */
export const publicCaller = (clientAddress = '203.0.113.9') => createCaller({ viewer: null, clientAddress });
/** A distinct client address per call, so the per-address login counters of one test never reach another. */
let addresses = 0;
export const freshAddress = () => `198.51.100.${++addresses}`;
export const uniqueEmail = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}@example.test`;

/** The outcome of a password check: 'ok', or the AppError code it was refused with. */
export async function outcome(attempt: Promise<unknown>): Promise<string> {
  try {
    await attempt;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.code;
    const code = (error as { code?: string }).code;
    if (typeof code === 'string') return code;
    // next-auth's authorize() reports a spent budget as a plain Error whose message the login page reads.
    if (error instanceof Error && error.message === 'rate_limited') return error.message;
    throw error;
  }
}

export function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  return counts;
}

/** A person of tenant `home` with a reset link issued by that tenant's admin (not yet used). */
export async function personWithResetLink(home: SuiteTenant) {
  const person = await createTestUser(home.tenantId, 'agent');
  const issued = await home.admin('POST', `/members/${person.userId}/password-reset`);
  expect(issued.status, issued.text).toBe(201);
  return { ...person, token: tokenOf(issued.body.url) };
}
