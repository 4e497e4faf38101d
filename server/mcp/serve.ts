// POST /mcp: the Model Context Protocol over Streamable HTTP, answered by the official SDK's server
// and its web-standard transport. By the time this runs, the REST pipeline has done for the request
// what it does for every route (request id, X-Tenant-ID, bearer credential, tenant match, rate limit,
// permission, body limits and validation), so every HTTP request is authenticated again and a
// revoked key is refused before any protocol work.
//
// Stateless: a new server and transport per HTTP request (`sessionIdGenerator: undefined`), answering
// in JSON, no SSE stream. Nothing is kept between requests, so any instance (a serverless function
// included) answers any request, and the credential of each request is the only authority.
//
// Tools are served through `McpServer`'s underlying `server` (the SDK's documented way to set custom
// request handlers), not `registerTool`: a tool's arguments are validated by its route's own schema
// and answered with the route's field errors (validation_failed), which `registerTool` would
// pre-empt with its own check and message, and tools/list depends on the caller.
//
// Which toolbox a request gets depends on its credential: a staff credential (an API key, a person's
// access token) the tenant-wide tools of ./tools.ts that its permissions allow; an assistant session
// token the customer-bound tools of ./session-tools.ts, run for that session's conversation and
// contact (`ctx.actingFor`) and with the session as the audit log's actor.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Principal } from '@/server/auth/principal';
import type { OperationContext } from '@/server/domain/context';
import { assertWithinApiRateLimit } from '@/server/http/api-rate-limit';
import { problemBody } from '@/server/http/problem';
import type { HttpInput } from '@/server/http/route';
import { AppError } from '@/server/lib/errors';
import { logger } from '@/server/log';
import type { McpAnswers } from './messages';
import { SESSION_INSTRUCTIONS, SESSION_TOOLS } from './session-tools';
import { type AssistantTool, inputSchemaOf, mayCall, outputSchemaOf, runTool, toolResult } from './tool';
import { ASSISTANT_INSTRUCTIONS, ASSISTANT_TOOLS } from './tools';

const MCP_SERVER_INFO = { name: 'switchboard', title: 'Switchboard', version: '1.0.0' };

export type McpReply = { status: 200; body: z.input<typeof McpAnswers> } | { status: 202 };

/** A tool as tools/list shows it: its schemas generated from its route. */
function toolDefinition(tool: AssistantTool): Tool {
  const outputSchema = outputSchemaOf(tool);
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchemaOf(tool) as Tool['inputSchema'],
    ...(outputSchema ? { outputSchema: outputSchema as Tool['outputSchema'] } : {}),
    annotations: { readOnlyHint: tool.route.method === 'GET' },
  };
}

/**
 * The toolbox of this request's credential: what it lists, what it can call, and the context its calls
 * run in (under a session, acting for the conversation's contact).
 */
function toolboxOf(principal: Principal, ctx: OperationContext) {
  if (principal.kind === 'assistant_session') {
    return {
      instructions: SESSION_INSTRUCTIONS,
      listed: SESSION_TOOLS,
      callable: SESSION_TOOLS,
      ctx: {
        ...ctx,
        actingFor: { conversationId: principal.conversationId, contact: principal.contact },
      },
    };
  }
  return {
    instructions: ASSISTANT_INSTRUCTIONS,
    // Only what this credential may call; calling another still answers forbidden, as REST does.
    listed: ASSISTANT_TOOLS.filter((tool) => mayCall(tool, principal.permissions)),
    callable: ASSISTANT_TOOLS,
    ctx,
  };
}

/** A refusal as a tool result: `isError`, and the problem document REST would answer as its text. */
function refusal(error: AppError, requestId: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(problemBody(error, requestId)) }] };
}

export async function serveMcp(input: {
  ctx: OperationContext;
  http: HttpInput;
  body: unknown;
}): Promise<McpReply> {
  const { body } = input;
  const { request, requestId, principal } = input.http;
  // The pipeline counted this request once; each further message of a batch counts as one more.
  if (Array.isArray(body)) await assertWithinApiRateLimit(principal, body.length - 1);
  const toolbox = toolboxOf(principal, input.ctx);

  const mcp = new McpServer(MCP_SERVER_INFO, { instructions: toolbox.instructions });
  const { server } = mcp;
  server.registerCapabilities({ tools: {} });
  server.onerror = (error) => logger().debug({ err: error, request_id: requestId }, 'mcp transport');
  // A failure that is not a refusal (a bug, the database gone) is the request's: after the protocol
  // answered, it is thrown to the pipeline, which answers 500 (logged) or 503 as for any route.
  let failure: { error: unknown } | undefined;

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolbox.listed.map(toolDefinition) }));
  // The SDK dispatches a batch's messages at once; its tool calls run one after the other instead, so
  // a batch costs no more memory or connections at a time than a single call.
  let previous: Promise<unknown> = Promise.resolve();
  server.setRequestHandler(CallToolRequestSchema, (call): Promise<CallToolResult> => {
    const run = previous.then(async (): Promise<CallToolResult> => {
      const tool = toolbox.callable.find((t) => t.name === call.params.name);
      if (!tool) {
        return refusal(
          new AppError('not_found', `No tool is named ${call.params.name}; tools/list names them`),
          requestId,
        );
      }
      try {
        const answer = await runTool(tool, {
          ctx: toolbox.ctx,
          permissions: principal.permissions,
          args: call.params.arguments ?? {},
        });
        return toolResult(answer);
      } catch (error) {
        if (error instanceof AppError) return refusal(error, requestId);
        failure ??= { error };
        // Never sent: the failure is thrown once the transport has answered.
        return { isError: true, content: [] };
      }
    });
    previous = run.catch(() => undefined);
    return run;
  });

  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await mcp.connect(transport);
  try {
    const response = await transport.handleRequest(request, { parsedBody: body });
    if (failure) throw failure.error;
    return await replyOf(response);
  } finally {
    await mcp.close();
  }
}

/** The transport's answer as the route's reply; its own refusals become problem documents. */
async function replyOf(response: Response): Promise<McpReply> {
  if (response.status === 202) return { status: 202 };
  const text = await response.text();
  if (response.status === 200) return { status: 200, body: JSON.parse(text) };
  let message = `The MCP transport refused the request (HTTP ${response.status})`;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') message = parsed.error.message;
  } catch {
    // not JSON: keep the generic message
  }
  if (response.status === 406) throw new AppError('not_acceptable', message);
  if (response.status >= 400 && response.status < 500) throw new AppError('invalid_mcp_request', message);
  throw new Error(`MCP transport answered HTTP ${response.status}: ${message}`);
}
