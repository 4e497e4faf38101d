import { relayAfterResponse } from '@/server/runtime/after-response';
import { handleTrpcRequest } from '@/server/trpc/http-handler';

// The dashboard's tRPC endpoint; the session cookie is read (and its membership re-checked) per
// request. Bodies over 1 MiB and batches over 20 calls are refused (server/trpc/http-handler.ts).
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

function handler(request: Request) {
  relayAfterResponse(request.method);
  return handleTrpcRequest(request);
}

export { handler as GET, handler as POST };
