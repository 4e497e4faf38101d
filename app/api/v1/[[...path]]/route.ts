import { handleApi } from '@/server/api/routes';
import { relayAfterResponse } from '@/server/runtime/after-response';

// Every /api/v1 request goes through one dispatcher (server/http/dispatch.ts).
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

async function handler(request: Request): Promise<Response> {
  relayAfterResponse(request.method);
  return handleApi(request);
}

export {
  handler as DELETE,
  handler as GET,
  handler as OPTIONS,
  handler as PATCH,
  handler as POST,
  handler as PUT,
};
