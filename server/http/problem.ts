import { type ApiError, TITLES } from './errors';

export const PROBLEM_DOCS = '/docs/errors';

/** RFC 9457 problem details for an ApiError. */
export function problemResponse(error: ApiError, requestId: string): Response {
  const body = {
    type: `${PROBLEM_DOCS}#${error.code}`,
    title: TITLES[error.status] ?? 'Error',
    status: error.status,
    code: error.code,
    detail: error.message,
    request_id: requestId,
    ...(error.extra.errors ? { errors: error.extra.errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: {
      'Content-Type': 'application/problem+json',
      'X-Request-Id': requestId,
      ...error.extra.headers,
    },
  });
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
