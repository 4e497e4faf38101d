// What POST /mcp accepts and answers at the HTTP level: JSON-RPC 2.0 messages of the Model Context
// Protocol (one, or a batch). The REST pipeline checks a body against `McpMessages` before any
// protocol work (422 validation_failed, as for every route); the SDK's transport then reads the
// messages themselves. These schemas also document the endpoint in the OpenAPI document.
import { z } from 'zod';

/**
 * A batch holds at most this many messages (as a dashboard tRPC batch, server/trpc/http-handler.ts);
 * its tool calls run one after the other (server/mcp/serve.ts).
 */
export const MAX_MCP_BATCH = 20;

const MessageId = z.union([z.string().min(1).max(200), z.number().int()]);

const McpMessage = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: MessageId.optional().meta({ description: 'A request’s id, which its answer carries back' }),
    method: z.string().min(1).max(200).optional().meta({
      description: 'initialize, notifications/initialized, ping, tools/list or tools/call',
      example: 'tools/call',
    }),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({
        description: 'tools/call: the tool’s name and its arguments (see docs/integrators.md for the tools)',
        example: {
          name: 'find_slots',
          arguments: { service_id: 'svc_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q', start: '2027-03-01', end: '2027-03-07' },
        },
      }),
  })
  .meta({ id: 'McpMessage', description: 'A JSON-RPC 2.0 message of the Model Context Protocol' });

export const McpMessages = z.union([McpMessage, z.array(McpMessage).min(1).max(MAX_MCP_BATCH)]);

const McpAnswer = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: MessageId.nullable(),
    result: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({
        description:
          'tools/call: {content: [{type: "text", text}], structuredContent, isError?}; a refused call has ' +
          'isError: true and the problem document (with its code) as text',
      }),
    error: z
      .object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() })
      .optional()
      .meta({ description: 'A JSON-RPC error: an unknown method or malformed parameters' }),
  })
  .meta({ id: 'McpAnswer', description: 'The JSON-RPC 2.0 answer to one request' });

export const McpAnswers = z.union([McpAnswer, z.array(McpAnswer)]);
