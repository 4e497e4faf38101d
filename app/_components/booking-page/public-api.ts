/**
 * The booking pages' calls to their JSON twins (/api/v1/public/…: no credential, same origin). A
 * refusal comes back as its problem (code and a sentence to show), never thrown.
 */

export interface Slot {
  start: string;
  end: string;
}

export interface SlotDays {
  time_zone: string;
  days: Record<string, Slot[]>;
}

export interface Problem {
  status: number;
  code: string;
  message: string;
}

export type Answer<T> = { ok: true; body: T } | { ok: false; problem: Problem };

export async function callPublic<T>(
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; idempotencyKey?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  try {
    const response = await fetch(`/api/v1/public${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const json = await response.json().catch(() => undefined);
    if (response.ok) return { ok: true, body: json as T };
    const problem = (json ?? {}) as {
      code?: string;
      detail?: string;
      title?: string;
      errors?: { message: string }[];
    };
    return {
      ok: false,
      problem: {
        status: response.status,
        code: problem.code ?? 'error',
        message: problem.errors?.[0]?.message ?? problem.detail ?? problem.title ?? 'Something went wrong',
      },
    };
  } catch {
    return {
      ok: false,
      problem: { status: 0, code: 'network', message: 'No connection: check your network and try again' },
    };
  }
}

/** A random key per attempt: a retry after a dropped connection cannot book twice. */
export function newAttemptKey(): string {
  return crypto.randomUUID();
}
