// The AI assistant's toolbox: the Model Context Protocol on POST /mcp (server/mcp/). A route like any
// other, so the REST pipeline authenticates and limits every request before the protocol starts.
import { json, tenantRoute } from '@/server/http/route';
import { McpAnswers, McpMessages } from '@/server/mcp/messages';
import { serveMcp } from '@/server/mcp/serve';

export const mcpRoutes = [
  tenantRoute({
    method: 'POST',
    path: '/mcp',
    operationId: 'sendMcpMessages',
    tag: 'Assistant tools (MCP)',
    permission: 'assistant_tools.use',
    // The protocol's transport reads the request itself: no dashboard procedure.
    restOnly: true,
    // The one route an assistant session token opens (server/mcp/session-tools.ts).
    acceptsAssistantSession: true,
    summary: 'The AI assistant’s tools over the Model Context Protocol (Streamable HTTP)',
    description:
      'Point any MCP client (Claude, the OpenAI Agents SDK, the official SDKs) here with the X-Tenant-ID header and ' +
      'a credential: best, an assistant session token (ast_…, POST /conversations/{id}/assistant-sessions), ' +
      'whose tools act for that conversation’s contact only (no conversation_id or customer inputs; bookings ' +
      'answered as CustomerBooking; every call in the audit log with the session as actor); or an API key or ' +
      'access token, whose tools reach the whole tenant. Tools: find_slots, book_slot, reschedule_booking, cancel_booking, ' +
      'list_customer_bookings, send_message, hand_off_to_human; each is one operation of this API (GET /slots, ' +
      'POST /bookings, POST /bookings/{id}/reschedule, POST /bookings/{id}/cancel, GET /bookings, POST ' +
      '/conversations/{id}/messages, POST /conversations/{id}/handoff) with the same validation, permission, ' +
      'events and answers; docs/integrators.md ("Answer your customers with an assistant") lists their fields. ' +
      'Authenticated like every route, before any protocol work: 400 tenant_header_missing or ' +
      'tenant_header_invalid, 401 unauthenticated (WWW-Authenticate), 403 tenant_mismatch, 429 rate_limited ' +
      '(each message of a JSON-RPC batch counts as a request), 413, 415, 422 for a body that is not JSON-RPC ' +
      '(or a batch of more than 20 messages; a batch’s tool calls run one after the other), ' +
      'all as problem documents; every HTTP request is checked again, so a revoked key is refused at once (401). ' +
      'Stateless transport (decision): no Mcp-Session-Id, a fresh server per request answering in JSON ' +
      '(application/json, never an SSE stream), so any instance, a serverless one included, answers any ' +
      'request, and the credential of each request is the only authority. GET and DELETE answer 405 (no ' +
      'stream to open, no session to end), as the SDK’s stateless servers do. The transport’s own refusals ' +
      'are problem documents too: 406 not_acceptable without Accept: application/json, text/event-stream; ' +
      '400 invalid_mcp_request for a message it cannot take (an unsupported MCP-Protocol-Version). A tool ' +
      'call the operation refuses is not an HTTP error: its result has isError: true and the problem document ' +
      '(code slot_unavailable, validation_failed with errors[] in the tool’s field names, not_found, ' +
      'forbidden, invalid_transition, handled_by_human, …) as text. tools/list shows only the tools the credential ' +
      'may call. Every change a tool makes is in the audit log (assistant.tool_called, naming the tool). No tool ' +
      'answer is larger than 64 KiB: find_slots keeps the earliest slots and list_customer_bookings the newest ' +
      'bookings that fit, with truncated: true.',
    body: McpMessages,
    responses: {
      200: { description: 'The JSON-RPC answer to each request of the body', schema: McpAnswers },
      202: { description: 'Only notifications or responses were sent: accepted, no body' },
    },
    errors: [406],
    handler: async ({ ctx, body, http }) => {
      if (!http) throw new Error('POST /mcp runs only behind the REST pipeline');
      const reply = await serveMcp({ ctx, http, body });
      return reply.status === 202 ? { status: 202 as const } : json(200, reply.body);
    },
  }),
];
