// A route's input given as one object (its path parameters by their REST names merged with its body
// or query), as the transports derived from the routes take it: the dashboard's tRPC procedures
// (server/trpc/from-route.ts) and the assistant's tools (server/mcp/tool.ts). Validated by the route's
// own schemas through the same `validate()` as REST, so limits and field errors are identical.
// `runRoute` is the one way both run a route.

import { requirePermission } from '@/server/auth/principal';
import type { Permission } from '@/server/client-safe/permissions';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { validate } from '@/server/lib/validate';
import type { AnyTenantRoute } from './route';

/** The path parameter names of a route, in order (`/a/{id}/b/{message_id}` → id, message_id). */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

/**
 * Splits a derived transport's input into the route's params and body/query and validates each as
 * REST does: a missing or non-string path parameter is a field error like any other.
 */
export function parseRouteInput(route: AnyTenantRoute, raw: unknown) {
  const input = raw ?? {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw Errors.validation([{ path: '(input)', message: 'Expected an object' }]);
  }
  const names = pathParamNames(route.path);
  const params: Record<string, string> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (names.includes(key)) params[key] = value as string;
    else rest[key] = value;
  }
  const missing = names.filter((name) => typeof params[name] !== 'string' || params[name].length === 0);
  if (missing.length > 0) {
    throw Errors.validation(missing.map((name) => ({ path: name, message: 'Required: a non-empty string' })));
  }
  return {
    params,
    body: route.body ? validate(route.body, rest) : undefined,
    query: route.query ? validate(route.query, rest) : undefined,
  };
}

export type RouteInput = ReturnType<typeof parseRouteInput>;

/**
 * Runs a route for a derived transport whose caller is known: the route's permission against the
 * caller's (403, checked before the input, as REST answers 403 before 422), the input (by default
 * `parseRouteInput`; a tool maps its own field names first), then the handler, whose context carries
 * the caller's permissions as REST's does. Answers the route's success body (`null` for a 204). Both
 * read the route at every call, so the route object stays the one place that says them.
 */
export async function runRoute(
  route: AnyTenantRoute,
  call: {
    ctx: OperationContext;
    permissions: readonly Permission[];
    raw: unknown;
    parse?: (raw: unknown) => RouteInput;
  },
): Promise<unknown> {
  requirePermission(call, route.permission);
  const input = call.parse ? call.parse(call.raw) : parseRouteInput(route, call.raw);
  const reply = await route.handler({ ctx: { ...call.ctx, permissions: call.permissions }, ...input });
  return reply.body ?? null;
}
