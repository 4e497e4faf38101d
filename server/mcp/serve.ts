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
// pre-empt with its own check and message, and tools/list depends on the caller's role.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { OperationContext } from '@/server/domain/context';
import { assertWithinApiRateLimit } from '@/server/http/api-rate-limit';
import { problemBody } from '@/server/http/problem';
import type { HttpInput } from '@/server/http/route';
import { jsonBytes } from '@/server/lib/answer-size';
import { AppError } from '@/server/lib/errors';
import { logger } from '@/server/log';
import type { McpAnswers } from './messages';
import { type AssistantTool, inputSchemaOf, mayCall, outputSchemaOf, runTool, type ToolCall } from './tool';
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

/** A refusal as a tool result: `isError`, and the problem document REST would answer as its text. */
function refusal(error: AppError, requestId: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(problemBody(error, requestId)) }] };
}

export async function serveMcp(input: {
  ctx: OperationContext;
  http: HttpInput;
  body: unknown;
}): Promise<McpReply> {
  const { ctx, body } = input;
  const { request, requestId, principal } = input.http;
  // The pipeline counted this request once; each further message of a batch counts as one more.
  if (Array.isArray(body)) await assertWithinApiRateLimit(principal, body.length - 1);

  const mcp = new McpServer(MCP_SERVER_INFO, { instructions: ASSISTANT_INSTRUCTIONS });
  const { server } = mcp;
  server.registerCapabilities({ tools: {} });
  server.onerror = (error) => logger().debug({ err: error, request_id: requestId }, 'mcp transport');
  // A failure that is not a refusal (a bug, the database gone) is the request's: after the protocol
  // answered, it is thrown to the pipeline, which answers 500 (logged) or 503 as for any route.
  let failure: { error: unknown } | undefined;

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    // Only what this credential may call; calling another still answers forbidden, as REST does.
    tools: ASSISTANT_TOOLS.filter((tool) => mayCall(tool, principal.role)).map(toolDefinition),
  }));
  // The SDK dispatches a batch's messages at once; its tool calls run one after the other instead, so
  // a batch costs no more memory or connections at a time than a single call.
  let previous: Promise<unknown> = Promise.resolve();
  server.setRequestHandler(CallToolRequestSchema, (call): Promise<CallToolResult> => {
    const run = previous.then(async (): Promise<CallToolResult> => {
      const tool = ASSISTANT_TOOLS.find((t) => t.name === call.params.name);
      if (!tool) {
        return refusal(
          new AppError('not_found', `No tool is named ${call.params.name}; tools/list names them`),
          requestId,
        );
      }
      try {
        return await boundedResult(tool, { ctx, role: principal.role, args: call.params.arguments ?? {} });
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

/** The most a tool result holds as JSON: its text and its structured content together. */
export const MAX_TOOL_RESULT_BYTES = 64 * 1024;
/** Room for the result's own keys and the JSON-RPC envelope around it. */
const ENVELOPE_BYTES = 1024;
/**
 * The answer's budget on a first try: the result carries it twice, the second time as a JSON string,
 * whose escaping lengthens it (each quote of the JSON is escaped).
 */
const FIRST_BUDGET = Math.floor((MAX_TOOL_RESULT_BYTES - ENVELOPE_BYTES) / 2.5);

function resultOf(answer: unknown): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(answer) }],
    ...(answer && typeof answer === 'object' ? { structuredContent: answer as Record<string, unknown> } : {}),
  };
}

/**
 * A tool's result within MAX_TOOL_RESULT_BYTES: its route's answer cut to a budget (a list says
 * `truncated` or gives a `next_cursor`, server/lib/answer-size.ts). A read whose result still came out
 * larger (text that escapes more than guessed) is asked again for proportionally less; a change, which
 * happened once and cannot be asked again, keeps its structured content and says so in its text.
 */
async function boundedResult(
  tool: AssistantTool,
  call: Omit<ToolCall, 'answerBytes'>,
): Promise<CallToolResult> {
  let budget = FIRST_BUDGET;
  for (let attempt = 1; ; attempt++) {
    const answer = await runTool(tool, { ...call, answerBytes: budget });
    const result = resultOf(answer);
    const size = jsonBytes(result);
    if (size <= MAX_TOOL_RESULT_BYTES) return result;
    if (tool.route.method === 'GET' && attempt < 3) {
      budget = Math.floor((budget * (MAX_TOOL_RESULT_BYTES - ENVELOPE_BYTES)) / size);
      continue;
    }
    const slim: CallToolResult = {
      content: [{ type: 'text', text: 'The answer is too long to repeat as text: read structuredContent.' }],
      ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
    };
    if (jsonBytes(slim) <= MAX_TOOL_RESULT_BYTES) return slim;
    throw new Error(`tool ${tool.name} answered ${size} bytes, more than MAX_TOOL_RESULT_BYTES even cut`);
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
