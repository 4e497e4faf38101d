// Assistant sessions: a short-lived token an assistant's host mints for one conversation, so the model
// it runs acts for that conversation's contact only (server/mcp/session-tools.ts; docs/decisions.md
// "Assistant sessions").

import { createAssistantSession } from '@/server/domain/assistant-sessions/create-assistant-session';
import { revokeAssistantSession } from '@/server/domain/assistant-sessions/revoke-assistant-session';
import {
  AssistantSessionWithToken,
  CreateAssistantSessionInput,
} from '@/server/domain/assistant-sessions/schemas';
import { json, noContent, tenantRoute } from '@/server/http/route';

const tag = 'Assistant sessions';

export const assistantSessionRoutes = [
  tenantRoute({
    method: 'POST',
    path: '/conversations/{id}/assistant-sessions',
    operationId: 'createAssistantSession',
    secretResponse: true,
    tag,
    permission: 'assistant_sessions.create',
    summary: 'Mint an assistant session for one conversation (the token is shown once)',
    description:
      'For an AI assistant that answers this conversation: give its model the token, never an API key. The ' +
      'token (ast_…, stored only as a hash) is a bearer credential for POST /api/v1/mcp only, with this ' +
      'tenant’s X-Tenant-ID; any other route answers it 403 forbidden. Its tools act for the conversation’s ' +
      'contact and no one else: book_slot books for the contact, list_customer_bookings lists only the ' +
      'contact’s bookings (phone compared by its digits), reschedule_booking and cancel_booking answer ' +
      'not_found for anyone else’s booking, send_message writes to this conversation (handled_by_human while a ' +
      'person handles it), and bookings come back as {id, status, service_id, resource_id, start_at, end_at, ' +
      'hold_expires_at, payment?}. Every call is in the audit log (assistant.tool_called, actor ' +
      'assistant_session). The token stops working (401) at expires_at, when ended (DELETE ' +
      '/assistant-sessions/{id}) and once the conversation is resolved, checked on every request. 409 ' +
      'conversation_resolved for a resolved conversation; 409 assistant_session_limit_reached when the ' +
      'conversation already has 10 sessions that work (end one, or let it expire). Expired sessions are deleted ' +
      'within 10 minutes.',
    body: CreateAssistantSessionInput,
    responses: {
      201: { description: 'The session and its token (shown once)', schema: AssistantSessionWithToken },
    },
    errors: [404],
    handler: async ({ ctx, params, body }) =>
      json(201, await createAssistantSession(ctx, { conversation_id: params.id, ...body })),
  }),
  tenantRoute({
    method: 'DELETE',
    path: '/assistant-sessions/{id}',
    operationId: 'revokeAssistantSession',
    tag,
    permission: 'assistant_sessions.create',
    summary: 'End an assistant session at once',
    description:
      'Its token is refused (401) from the next request. A session that no longer works (ended or expired) ' +
      'answers 404.',
    responses: { 204: { description: 'Ended' } },
    errors: [404],
    handler: async ({ ctx, params }) => {
      await revokeAssistantSession(ctx, { id: params.id });
      return noContent();
    },
  }),
];
