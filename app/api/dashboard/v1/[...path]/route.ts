import { handleDashboardApi } from '@/server/api/routes';
import { userPrincipal } from '@/server/auth/principal';
import { Errors } from '@/server/lib/errors';
import { currentViewer } from '@/server/trpc/membership';

// The dashboard's twin of a REST-only route (an inbound message's file for the agent's <img>,
// <audio> and download links): the same REST pipeline, with the signed-in member's session as the
// credential (server/http/dispatch.ts, `Entry`). Only GET: a cookie never authorises a change here.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function GET(request: Request): Promise<Response> {
  return handleDashboardApi(request, async () => {
    const viewer = await currentViewer();
    if (!viewer) throw Errors.unauthenticated('Sign in first');
    if (!viewer.tenantId || !viewer.role) throw Errors.unauthenticated('Choose a tenant first');
    return userPrincipal({ tenantId: viewer.tenantId, role: viewer.role, userId: viewer.userId });
  });
}
