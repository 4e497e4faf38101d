// An assistant tool is derived from its REST route, as a dashboard procedure is
// (server/trpc/from-route.ts). Its input JSON Schema is generated from the route's own zod schema
// (the fields it offers, by their REST names, with the path id named after what it names:
// `booking_id`, `conversation_id`), its output schema from the route's success response, and a call
// runs the route's handler after the route's permission check and the route's validation (the same
// 422 field errors), so it has the same events, audit and domain code. A tool adds only its name, a
// description for a model, and which of the route's fields it offers. A tool of an assistant session
// (./session-tools.ts) adds the route fields it fills from the session instead (`bind`: the
// conversation, the customer) and the narrower answer it gives (`answer`). No answer is larger than
// MAX_RESULT_BYTES: a tool whose answer can grow says how to cut it (its `cut`).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { allows, type Permission } from '@/server/client-safe/permissions';
import { recordToolRead } from '@/server/domain/audit/record-audit';
import type { ActingFor, OperationContext } from '@/server/domain/context';
import type { AnyTenantRoute, ResponseSpec } from '@/server/http/route';
import { parseRouteInput, pathParamNames, runRoute } from '@/server/http/route-input';
import { AppError, Errors, type FieldError } from '@/server/lib/errors';

export type JsonSchema = Record<string, unknown>;

export interface ToolOptions {
  /** What the model calls (snake_case). */
  name: string;
  /** For a model: what the tool does, when to use it, what its fields and its answer mean. */
  description: string;
  /** The tool's field for the route's `{id}` (`booking_id`), with its description. */
  idParam?: { name: string; description: string };
  /** Only these fields of the route's body or query (by their REST names); default: all of them. */
  pick?: readonly string[];
  /** Tool field → the route's field, where the tool names one differently (`phone` → `customer_phone`). */
  rename?: Readonly<Record<string, string>>;
  /** Tool fields this tool requires although the route has them optional (`book_slot`: `service_id`). */
  required?: readonly string[];
  /** Tool fields of which at least one must be sent. */
  requireOneOf?: readonly string[];
  /** Route fields the tool sets itself and does not offer (`list_customer_bookings`: `limit`). */
  fixed?: Readonly<Record<string, unknown>>;
  /**
   * Route fields an assistant session fills, from its conversation, at every call (`id`: the
   * conversation; `customer`: its contact); never offered, so a model cannot name them. The domain
   * also narrows what the call reaches (`ctx.actingFor`).
   */
  bind?: Readonly<Record<string, (actingFor: ActingFor) => unknown>>;
  /** What the tool answers instead of the route's body (its schema, and how it is made from the body). */
  answer?: { schema: z.ZodType; present: (ctx: OperationContext, body: unknown) => Promise<unknown> };
  /**
   * How an answer over MAX_RESULT_BYTES is cut (the earliest slots, the first bookings), marked
   * `truncated: true`. A tool without one answers a single resource, bounded by its schema's limits.
   */
  cut?: (answer: unknown, fits: (candidate: unknown) => boolean) => unknown;
}

/** No tool result is larger than this: its text and its structured content together, as JSON. */
export const MAX_RESULT_BYTES = 64 * 1024;

export interface AssistantTool extends ToolOptions {
  route: AnyTenantRoute;
}

/** A tool over `route`. The route object is read at every call, so a change to it changes the tool. */
export function toolFrom(route: AnyTenantRoute, options: ToolOptions): AssistantTool {
  const params = pathParamNames(route.path);
  const expected = options.idParam || options.bind?.id ? ['id'] : [];
  if (params.join() !== expected.join()) {
    throw new Error(
      `tool ${options.name}: ${route.operationId} has path parameters [${params}]; an idParam (or a bound id) stands for {id} only`,
    );
  }
  if (options.idParam && options.bind?.id)
    throw new Error(`tool ${options.name}: its id is offered and bound`);
  return { ...options, route };
}

/** Whether a credential may call the tool: the route's permission (server/client-safe/permissions.ts). */
export function mayCall(tool: AssistantTool, permissions: readonly Permission[]): boolean {
  return allows(permissions, tool.route.permission);
}

// --- JSON Schemas --------------------------------------------------------------------------------

const generated = new WeakMap<z.ZodType, { input?: JsonSchema; output?: JsonSchema }>();

/** Formats JSON Schema names itself: zod's own regex beside one only lengthens what a model reads. */
const STANDARD_FORMATS = new Set(['date-time', 'date', 'time', 'email', 'uuid', 'uri']);

/**
 * The JSON Schema (draft-07, what MCP clients and the SDK's own validator read) of a zod schema, as
 * the SDK's own conversion makes it (zod's `toJSONSchema`), self-contained: component references are
 * inlined, an `example` becomes the standard `examples`, and a standard `format` stands without
 * zod's regex for it (the route's schema still validates every call). Cached per schema object.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const cached = generated.get(schema) ?? {};
  if (!cached[io]) {
    const raw = z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'any' }) as JsonSchema;
    const { definitions = {}, $schema: _, ...root } = raw as JsonSchema & { definitions?: JsonSchema };
    cached[io] = tidy(root, definitions as Record<string, JsonSchema>, 0) as JsonSchema;
    generated.set(schema, cached);
  }
  return cached[io] as JsonSchema;
}

function tidy(node: unknown, definitions: Record<string, JsonSchema>, depth: number): unknown {
  if (depth > 64) throw new Error('jsonSchemaOf: a schema nested deeper than 64 levels (a cycle?)');
  if (Array.isArray(node)) return node.map((item) => tidy(item, definitions, depth + 1));
  if (!node || typeof node !== 'object') return node;
  const { $ref, example, ...rest } = node as JsonSchema;
  const name = typeof $ref === 'string' ? /^#\/definitions\/(.+)$/.exec($ref)?.[1] : undefined;
  const base =
    name && definitions[name] ? { ...definitions[name], ...rest } : { ...($ref ? { $ref } : {}), ...rest };
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(base)) out[key] = tidy(value, definitions, depth + 1);
  if (example !== undefined && out.examples === undefined) out.examples = [example];
  if (typeof out.format === 'string' && STANDARD_FORMATS.has(out.format)) delete out.pattern;
  return out;
}

const toolField = (tool: AssistantTool, routeField: string) =>
  Object.entries(tool.rename ?? {}).find(([, r]) => r === routeField)?.[0] ?? routeField;
const routeField = (tool: AssistantTool, field: string) => tool.rename?.[field] ?? field;

/** The fields of the route's body or query that the tool offers, by their REST names, in order. */
function offeredRouteFields(tool: AssistantTool, properties: JsonSchema): string[] {
  const fixed = Object.keys(tool.fixed ?? {});
  const bound = Object.keys(tool.bind ?? {});
  const fields = tool.pick ?? Object.keys(properties).filter((f) => !fixed.includes(f));
  for (const field of [...fields, ...bound.filter((f) => f !== 'id')]) {
    if (!(field in properties))
      throw new Error(`tool ${tool.name}: ${tool.route.operationId} has no field ${field}`);
  }
  return fields.filter((f) => !bound.includes(f));
}

function sourceSchemaOf(tool: AssistantTool): { properties: JsonSchema; required: string[] } {
  const source = tool.route.body ?? tool.route.query;
  if (!source) return { properties: {}, required: [] };
  const json = jsonSchemaOf(source, 'input');
  return {
    properties: (json.properties as JsonSchema | undefined) ?? {},
    required: (json.required as string[] | undefined) ?? [],
  };
}

/** The tool's input schema: the id, then the route's offered fields by the tool's names; nothing else. */
export function inputSchemaOf(tool: AssistantTool): JsonSchema {
  const { properties, required } = sourceSchemaOf(tool);
  const fields = offeredRouteFields(tool, properties);
  const out: JsonSchema = {};
  if (tool.idParam)
    out[tool.idParam.name] = { type: 'string', minLength: 1, description: tool.idParam.description };
  for (const field of fields) out[toolField(tool, field)] = properties[field];
  const needed = [
    ...(tool.idParam ? [tool.idParam.name] : []),
    ...required.filter((f) => fields.includes(f)).map((f) => toolField(tool, f)),
    ...(tool.required ?? []),
  ];
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: out,
    required: [...new Set(needed)],
    additionalProperties: false,
  };
}

/** The schema of the route's success answer (its one 2xx response with a body). */
function successSchemaOf(tool: AssistantTool): z.ZodType | undefined {
  const success = Object.entries(tool.route.responses as Record<string, ResponseSpec>).find(
    ([status, spec]) => Number(status) < 300 && spec.schema,
  );
  return success?.[1].schema;
}

/**
 * The tool's output schema: its own answer's or the route's success answer (an object: MCP's
 * structured content is one), with `truncated` when the tool cuts long answers.
 */
export function outputSchemaOf(tool: AssistantTool): JsonSchema | undefined {
  const schema = tool.answer?.schema ?? successSchemaOf(tool);
  if (!schema) return undefined;
  const json = jsonSchemaOf(schema, 'output');
  if (json.type !== 'object') return undefined;
  const properties = tool.cut
    ? {
        ...(json.properties as JsonSchema),
        truncated: {
          type: 'boolean',
          description: `Present (true) only when the answer was cut to stay under ${MAX_RESULT_BYTES / 1024} KiB`,
        },
      }
    : json.properties;
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...json, properties };
}

// --- Calls ---------------------------------------------------------------------------------------

/**
 * The route's input from the tool's arguments: only the tool's fields (another is a field error),
 * its own required fields, then the route's validation, whose field errors name the tool's fields.
 * A session's tool takes its bound fields from `actingFor`, after the arguments, so nothing the model
 * sends can stand in for them.
 */
export function routeInputOf(tool: AssistantTool, args: unknown, actingFor?: ActingFor) {
  if (!args || typeof args !== 'object' || Array.isArray(args)) {
    throw Errors.validation([{ path: '(input)', message: 'Expected an object of the tool’s fields' }]);
  }
  const given = args as Record<string, unknown>;
  const schema = inputSchemaOf(tool);
  const offered = Object.keys(schema.properties as JsonSchema);
  const errors: FieldError[] = [];
  for (const key of Object.keys(given)) {
    if (!offered.includes(key)) errors.push({ path: key, message: `Not a field of ${tool.name}` });
  }
  for (const field of tool.required ?? []) {
    if (given[field] === undefined) errors.push({ path: field, message: 'Required' });
  }
  const oneOf = tool.requireOneOf ?? [];
  if (oneOf.length > 0 && oneOf.every((field) => given[field] === undefined)) {
    errors.push({ path: oneOf[0], message: `Send at least one of ${oneOf.join(', ')}` });
  }
  if (errors.length > 0) throw Errors.validation(errors);

  const raw: Record<string, unknown> = { ...tool.fixed };
  for (const [key, value] of Object.entries(given)) {
    raw[key === tool.idParam?.name ? 'id' : routeField(tool, key)] = value;
  }
  if (tool.bind) {
    if (!actingFor) throw new Error(`tool ${tool.name} runs only for an assistant session`);
    for (const [field, fill] of Object.entries(tool.bind)) raw[field] = fill(actingFor);
  }
  try {
    return parseRouteInput(tool.route, raw);
  } catch (error) {
    if (error instanceof AppError && error.code === 'validation_failed' && error.details.errors) {
      throw Errors.validation(error.details.errors.map((e) => ({ ...e, path: toolPath(tool, e.path) })));
    }
    throw error;
  }
}

/** A field error's path in the tool's names (`customer_phone` → `phone`, `id` → `booking_id`). */
function toolPath(tool: AssistantTool, path: string): string {
  const [head] = path.split(/[.[]/, 1);
  const name = head === 'id' && tool.idParam ? tool.idParam.name : toolField(tool, head);
  return name + path.slice(head.length);
}

/**
 * Runs the tool for a caller holding `permissions`: the route's permission (403 forbidden, before the
 * input as REST answers), its input, then its handler with `ctx.tool` set, so that what it changes is
 * audited as this tool's call (under a session its reads too). Answers the route's success body, or
 * the tool's own answer, cut to MAX_RESULT_BYTES.
 */
export async function runTool(
  tool: AssistantTool,
  call: { ctx: OperationContext; permissions: readonly Permission[]; args: unknown },
): Promise<unknown> {
  // An Idempotency-Key of the HTTP request covers its whole JSON-RPC body, not one provider call of
  // one of its tool calls: it is not passed on as the operation's request key.
  const ctx: OperationContext = { ...call.ctx, requestKey: undefined, tool: tool.name };
  const body = await runRoute(tool.route, {
    ctx,
    permissions: call.permissions,
    raw: call.args,
    parse: (raw) => routeInputOf(tool, raw, ctx.actingFor),
  });
  if (tool.route.method === 'GET') await recordToolRead(ctx);
  const answer = tool.answer ? await tool.answer.present(ctx, body) : body;
  return fitted(tool, answer);
}

/**
 * The tool result of an answer: its JSON as text and, for an object, the same as structured content
 * (what MCP clients read; a model reads either).
 */
function fullResult(answer: unknown): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(answer) }],
    ...(answer && typeof answer === 'object' ? { structuredContent: answer as Record<string, unknown> } : {}),
  };
}

/** Room for the JSON-RPC envelope around a result. */
const ENVELOPE_BYTES = 256;
const resultBytes = (result: CallToolResult) => Buffer.byteLength(JSON.stringify(result)) + ENVELOPE_BYTES;
/** Whether an answer's result (text and structured content together) is within MAX_RESULT_BYTES. */
const fits = (answer: unknown) => resultBytes(fullResult(answer)) <= MAX_RESULT_BYTES;
/** Whether the answer alone (its structured content) is. */
const fitsOnce = (answer: unknown) =>
  Buffer.byteLength(JSON.stringify(answer)) + ENVELOPE_BYTES <= MAX_RESULT_BYTES;

/**
 * The result of an answer (see `fitted`), within MAX_RESULT_BYTES: whole when it fits; an answer of one
 * resource whose text would pass the bound (text escapes what structured content does not) keeps its
 * structured content and says so in its text.
 */
export function toolResult(answer: unknown): CallToolResult {
  const full = fullResult(answer);
  if (!full.structuredContent || resultBytes(full) <= MAX_RESULT_BYTES) return full;
  return {
    content: [{ type: 'text', text: 'The answer is too long to repeat as text: read structuredContent.' }],
    structuredContent: full.structuredContent,
  };
}

/**
 * The answer as it goes out: whole when its result fits, else cut by the tool's `cut` and marked
 * truncated (a page's next_cursor then goes on from the last entry kept).
 */
function fitted(tool: AssistantTool, answer: unknown): unknown {
  if (fits(answer)) return answer;
  if (tool.cut)
    return {
      ...(tool.cut(answer, (candidate) => fits({ ...(candidate as object), truncated: true })) as object),
      truncated: true,
    };
  // Every other tool answers one resource, which its schema's limits keep under the bound once.
  if (fitsOnce(answer)) return answer;
  throw new Error(`tool ${tool.name} answered more than ${MAX_RESULT_BYTES} bytes and cannot cut it`);
}

/**
 * The longest prefix of `items` for which `fits(make(prefix))` holds (binary search: `fits` serialises
 * the whole candidate). Shared by the cuts of lists and slots.
 */
export function longestFitting<T>(
  items: readonly T[],
  make: (kept: T[]) => unknown,
  fits: (c: unknown) => boolean,
) {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(make(items.slice(0, mid)))) low = mid;
    else high = mid - 1;
  }
  return make(items.slice(0, low));
}
