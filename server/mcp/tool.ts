// An assistant tool is derived from its REST route, as a dashboard procedure is
// (server/trpc/from-route.ts). Its input JSON Schema is generated from the route's own zod schema
// (the fields it offers, by their REST names, with the path id named after what it names:
// `booking_id`, `conversation_id`), its output schema from the route's success response, and a call
// runs the route's handler after the route's permission check and the route's validation (the same
// 422 field errors), so it has the same events, audit and domain code. A tool adds only its name, a
// description for a model, and which of the route's fields it offers.
import { z } from 'zod';
import { hasPermission } from '@/server/client-safe/permissions';
import type { Role } from '@/server/client-safe/statuses';
import type { OperationContext } from '@/server/domain/context';
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
}

export interface AssistantTool extends ToolOptions {
  route: AnyTenantRoute;
}

/** A tool over `route`. The route object is read at every call, so a change to it changes the tool. */
export function toolFrom(route: AnyTenantRoute, options: ToolOptions): AssistantTool {
  const params = pathParamNames(route.path);
  const expected = options.idParam ? ['id'] : [];
  if (params.join() !== expected.join()) {
    throw new Error(
      `tool ${options.name}: ${route.operationId} has path parameters [${params}]; an idParam stands for {id} only`,
    );
  }
  return { ...options, route };
}

/** Whether a role may call the tool: the route's permission (server/client-safe/permissions.ts). */
export function mayCall(tool: AssistantTool, role: Role): boolean {
  return hasPermission(role, tool.route.permission);
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
  const fields = tool.pick ?? Object.keys(properties).filter((f) => !fixed.includes(f));
  for (const field of fields) {
    if (!(field in properties))
      throw new Error(`tool ${tool.name}: ${tool.route.operationId} has no field ${field}`);
  }
  return [...fields];
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

/** The tool's output schema: the route's success answer (an object: MCP's structured content is one). */
export function outputSchemaOf(tool: AssistantTool): JsonSchema | undefined {
  const schema = successSchemaOf(tool);
  if (!schema) return undefined;
  const json = jsonSchemaOf(schema, 'output');
  return json.type === 'object' ? { $schema: 'http://json-schema.org/draft-07/schema#', ...json } : undefined;
}

// --- Calls ---------------------------------------------------------------------------------------

/**
 * The route's input from the tool's arguments: only the tool's fields (another is a field error),
 * its own required fields, then the route's validation, whose field errors name the tool's fields.
 */
export function routeInputOf(tool: AssistantTool, args: unknown) {
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
 * Runs the tool for a caller of `role`: the route's permission (403 forbidden, before the input as
 * REST answers), its input, then its handler with `ctx.tool` set, so that what it changes is audited
 * as this tool's call. Answers the route's success body.
 */
export interface ToolCall {
  ctx: OperationContext;
  role: Role;
  args: unknown;
  /** The most JSON the route's answer may hold (a list cuts itself there): see server/mcp/serve.ts. */
  answerBytes?: number;
}

export async function runTool(tool: AssistantTool, call: ToolCall): Promise<unknown> {
  // An Idempotency-Key of the HTTP request covers its whole JSON-RPC body, not one provider call of
  // one of its tool calls: it is not passed on as the operation's request key.
  const ctx: OperationContext = {
    ...call.ctx,
    requestKey: undefined,
    tool: tool.name,
    ...(call.answerBytes ? { answerBytes: call.answerBytes } : {}),
  };
  return runRoute(tool.route, {
    ctx,
    role: call.role,
    raw: call.args,
    parse: (raw) => routeInputOf(tool, raw),
  });
}
