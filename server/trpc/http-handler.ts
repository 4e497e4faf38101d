// The dashboard's tRPC endpoint (/api/trpc, app/api/trpc/[trpc]/route.ts) with the limits REST has
// (issue 21, finding 5): a body is read through a 1 MiB limit (REST's MAX_BODY_BYTES), counted as it
// streams in, so neither a missing nor a lying Content-Length gets more than that into memory; past
// it every call of the request answers 413 PAYLOAD_TOO_LARGE (apiCode `payload_too_large`) in tRPC's
// own error shape. A batch holds at most TRPC_MAX_BATCH calls (more: 400 before any runs). The body
// is read only when a procedure asks for its input, after the session check (server/trpc/init.ts).
import { TRPCError } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { limitedBody, MAX_BODY_BYTES } from '@/server/http/body';
import { HttpErrors } from '@/server/http/errors';
import { createTrpcContext, DomainTRPCError, type TrpcContext } from './init';
import { appRouter } from './root';

/** Calls per batched request; the dashboard's client batches at most this many (app/_components/providers.tsx). */
export const TRPC_MAX_BATCH = 20;

export function handleTrpcRequest(
  request: Request,
  createContext: (opts: { req: Request }) => Promise<TrpcContext> = createTrpcContext,
): Promise<Response> {
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: withBodyLimit(request),
    router: appRouter,
    createContext: () => createContext({ req: request }),
    maxBatchSize: TRPC_MAX_BATCH,
    // A database outage or a rate limit answers with the same Retry-After as REST.
    responseMeta: ({ errors }) => {
      const seconds = retryAfterOf(errors);
      return seconds === undefined ? {} : { headers: { 'Retry-After': String(seconds) } };
    },
  });
}

/** The longest Retry-After the calls' errors ask for (whole seconds, at least 1), if any does. */
function retryAfterOf(errors: readonly TRPCError[]): number | undefined {
  let longest: number | undefined;
  for (const error of errors) {
    const cause = error instanceof DomainTRPCError ? error.appError : undefined;
    const seconds =
      cause?.details.retryAfterSeconds ?? (error.code === 'SERVICE_UNAVAILABLE' ? 5 : undefined);
    if (seconds !== undefined) longest = Math.max(longest ?? 1, Math.ceil(seconds));
  }
  return longest;
}

function tooLarge(): TRPCError {
  const cause = HttpErrors.payloadTooLarge(MAX_BODY_BYTES);
  return new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: cause.message, cause });
}

/** The same request, its body read through the REST limit (server/http/body.ts) when a procedure asks for it. */
function withBodyLimit(request: Request): Request {
  const body = limitedBody(request, tooLarge);
  if (!body) return request;
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
    duplex: 'half',
  } as RequestInit);
}
