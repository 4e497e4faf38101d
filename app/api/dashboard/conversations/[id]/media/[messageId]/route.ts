// An inbound message's file for the dashboard (the agent's <img>, <audio>, download links): the
// signed-in member's session instead of an API credential, then the same domain operation and
// headers as GET /api/v1/conversations/{id}/messages/{message_id}/media.

import { operationContext } from '@/server/domain/context';
import { openMessageMedia } from '@/server/domain/conversations/open-message-media';
import { mediaHeaders } from '@/server/http/media-response';
import { internalErrorResponse, problemResponse } from '@/server/http/problem';
import { withSecurityHeaders } from '@/server/http/security-headers';
import { AppError, Errors } from '@/server/lib/errors';
import { newRequestId } from '@/server/lib/ids';
import { logger } from '@/server/log';
import { currentViewer } from '@/server/trpc/membership';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(
  _request: Request,
  context: { params: Promise<{ id: string; messageId: string }> },
) {
  const requestId = newRequestId();
  try {
    const viewer = await currentViewer();
    if (!viewer) throw Errors.unauthenticated('Sign in first');
    if (!viewer.tenantId) throw Errors.unauthenticated('Choose a tenant first');
    const { id, messageId } = await context.params;
    const ctx = operationContext(viewer.tenantId, { type: 'user', id: viewer.userId });
    const file = await openMessageMedia(ctx, { conversationId: id, messageId });
    return withSecurityHeaders(new Response(file.stream, { status: 200, headers: mediaHeaders(file) }));
  } catch (error) {
    if (error instanceof AppError) return withSecurityHeaders(problemResponse(error, requestId));
    logger().error({ err: error, request_id: requestId }, 'dashboard media failed');
    return withSecurityHeaders(internalErrorResponse(requestId));
  }
}
