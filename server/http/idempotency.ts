// `Idempotency-Key` on POST (docs/architecture.md "Request pipeline"), as Stripe does it: the first request with a key claims
// it; its outcome is stored for 24 h and replayed to later requests with the same key and body;
// another body gets 409. A request that arrives while the first still runs waits for its outcome. A
// 4xx the operation answered (e.g. 409 invalid_transition) is its outcome and is replayed too, as
// Stripe does; an unexpected failure (500, its transaction rolled back) releases the key so the
// client can retry. Stored answers can hold one-time secrets (a new API key, a webhook secret, an
// invitation link; encrypted): a periodic job deletes them once expired (server/db/idempotency-retention.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import type { TenantTx } from '@/server/db/tenant-scope';
import { AppError, type ErrorCode, Errors, type FieldError, isErrorCode } from '@/server/lib/errors';
import { sha256Hex } from '@/server/security/hashing';
import { decryptSecret, encryptSecret } from '@/server/security/secret-box';
import { problemStatus } from './problem';
import type { ApiResult } from './route';

const TTL_MS = 24 * 60 * 60 * 1000;
const WAIT_FOR_FIRST_MS = 10_000;
const MAX_KEY_LENGTH = 255;

interface Input {
  db: TenantTx;
  tenantId: string;
  /** Who sends this request (`api_key:<id>` / `user:<id>`). */
  credential: string;
  /** The answer carries a one-time secret: replay it only to the credential that asked first. */
  secretResponse: boolean;
  key: string;
  method: string;
  path: string;
  rawBody: string;
}

export async function withIdempotency(input: Input, run: () => Promise<ApiResult>): Promise<ApiResult> {
  const { db, key } = input;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw Errors.validation([
      { path: 'Idempotency-Key', message: `Must be 1 to ${MAX_KEY_LENGTH} characters` },
    ]);
  }
  const requestHash = sha256Hex(`${input.method} ${input.path}\n${input.rawBody}`);
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;

  for (;;) {
    const now = new Date();
    await db.idempotencyKey.deleteMany({ where: { key, expiresAt: { lte: now } } });
    const claimed = await db.idempotencyKey.createMany({
      data: [
        {
          tenantId: input.tenantId,
          key,
          requestHash,
          credential: input.credential,
          createdAt: now,
          expiresAt: new Date(now.getTime() + TTL_MS),
        },
      ],
      skipDuplicates: true,
    });
    if (claimed.count === 1) return runAndStore(input, requestHash, run);

    const existing = await db.idempotencyKey.findUnique({
      where: { tenantId_key: { tenantId: input.tenantId, key } },
    });
    if (!existing) continue; // expired and removed between our two statements: claim again
    if (existing.requestHash !== requestHash) {
      throw Errors.conflict(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request',
      );
    }
    if (input.secretResponse && existing.credential !== input.credential) {
      throw Errors.conflict(
        'idempotency_key_reused',
        'This Idempotency-Key was used by another credential; its answer is not shown to this one',
      );
    }
    if (existing.responseStatus !== null && existing.responseStatus >= 400) {
      throw replayedError(existing.responseBody);
    }
    if (existing.responseStatus !== null) {
      return {
        status: existing.responseStatus,
        body: existing.responseBody === null ? undefined : readStored(existing.responseBody),
        headers: { 'Idempotent-Replayed': 'true' },
      };
    }
    if (Date.now() > deadline) {
      throw Errors.conflict(
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still being processed',
      );
    }
    await sleep(25);
  }
}

async function runAndStore(
  input: Input,
  requestHash: string,
  run: () => Promise<ApiResult>,
): Promise<ApiResult> {
  const where = { tenantId_key: { tenantId: input.tenantId, key: input.key } };
  let result: ApiResult;
  try {
    result = await run();
  } catch (error) {
    if (error instanceof AppError && problemStatus(error) < 500) {
      const stored: StoredProblem = { code: error.code, detail: error.message, errors: error.details.errors };
      await input.db.idempotencyKey.update({
        where,
        data: { requestHash, responseStatus: problemStatus(error), responseBody: sealed(stored) },
      });
      throw error;
    }
    // The work did not happen (its transaction rolled back): release the key for a retry.
    await input.db.idempotencyKey.delete({ where }).catch(() => {});
    throw error;
  }
  await input.db.idempotencyKey.update({
    where,
    data: {
      requestHash,
      responseStatus: result.status,
      responseBody: result.body === undefined ? null : sealed(result.body),
    },
  });
  return result;
}

/** A stored 4xx outcome: replayed as the same problem, with this request's id. */
interface StoredProblem {
  code: ErrorCode;
  detail: string;
  errors?: FieldError[];
}

function replayedError(body: string | null): AppError {
  const stored = (body === null ? {} : readStored(body)) as StoredProblem;
  // The code decides the status again; a code this version no longer knows replays as a conflict.
  const code = isErrorCode(stored.code) ? stored.code : 'idempotency_key_reused';
  return new AppError(code, stored.detail, {
    ...(stored.errors ? { errors: stored.errors } : {}),
    replayed: true,
  });
}

/** Stored answers are encrypted: some carry a secret that must never sit in plaintext (docs/decisions.md "Security"). */
function sealed(value: unknown): string {
  return encryptSecret(JSON.stringify(value));
}

function readStored(text: string): unknown {
  // Rows from before encryption hold plain JSON (the migration removed those with secrets).
  return JSON.parse(text.startsWith('v1.') ? decryptSecret(text) : text);
}
