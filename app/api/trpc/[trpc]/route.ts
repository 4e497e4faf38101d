import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { createTrpcContext } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/root';
import { relayOutboxAfterResponse } from '@/server/webhooks/engines/after-write';

// The dashboard's tRPC endpoint; the session cookie is read (and its membership re-checked) per request.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

function handler(request: Request) {
  relayOutboxAfterResponse(request.method);
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    createContext: createTrpcContext,
    // A database outage answers 503 with the same Retry-After as REST.
    responseMeta: ({ errors }) =>
      errors.some((e) => e.code === 'SERVICE_UNAVAILABLE') ? { headers: { 'Retry-After': '5' } } : {},
  });
}

export { handler as GET, handler as POST };
