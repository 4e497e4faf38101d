// RFC 9457 problem details: the one place an `AppError` becomes a REST answer.
import type { AppError } from '@/server/lib/errors';
import { BEARER_CHALLENGE_CODES, HTTP_STATUS, TITLES } from './status';

export const PROBLEM_DOCS = '/docs/errors';

export function problemStatus(error: AppError): number {
  return HTTP_STATUS[error.code] ?? 500;
}

/** The problem document of an error: the body of its REST answer (and the text of a refused assistant tool call). */
export function problemBody(error: AppError, requestId: string) {
  const status = problemStatus(error);
  const { errors } = error.details;
  return {
    type: `${PROBLEM_DOCS}#${error.code}`,
    title: TITLES[status] ?? 'Error',
    status,
    code: error.code,
    detail: error.message,
    request_id: requestId,
    ...(errors ? { errors } : {}),
  };
}

export function problemResponse(error: AppError, requestId: string): Response {
  const body = problemBody(error, requestId);
  const { status } = body;
  const { retryAfterSeconds, allow, replayed } = error.details;
  const headers: Record<string, string> = {
    'Content-Type': 'application/problem+json',
    'X-Request-Id': requestId,
  };
  if (BEARER_CHALLENGE_CODES.has(error.code)) headers['WWW-Authenticate'] = 'Bearer error="invalid_token"';
  if (retryAfterSeconds !== undefined) {
    headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  }
  if (allow) headers.Allow = allow.join(', ');
  if (replayed) headers['Idempotent-Replayed'] = 'true';
  return new Response(JSON.stringify(body), { status, headers });
}

export function internalErrorResponse(requestId: string): Response {
  return new Response(
    JSON.stringify({
      type: `${PROBLEM_DOCS}#internal_error`,
      title: TITLES[500],
      status: 500,
      code: 'internal_error',
      detail: `Something went wrong on our side. Quote request id ${requestId} when reporting it.`,
      request_id: requestId,
    }),
    { status: 500, headers: { 'Content-Type': 'application/problem+json', 'X-Request-Id': requestId } },
  );
}
