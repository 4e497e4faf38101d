// One operation, declared once: the REST router dispatches it, the pipeline enforces its tenancy,
// credential, permission and schemas, the OpenAPI document is generated from the same object, and
// the dashboard's tRPC procedure (server/trpc/from-route.ts) is derived from it, so names, limits,
// permissions and answers cannot differ between the two. A handler's answer is typed by the route's
// declared `responses`: a status it does not declare, or a body that does not fit that status's
// schema, does not compile.
import type { z } from 'zod';
import type { Principal } from '@/server/auth/principal';
import type { Permission } from '@/server/client-safe/permissions';
import type { OperationContext } from '@/server/domain/context';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /**
   * The media type of a text answer (a string schema), e.g. `text/calendar; charset=utf-8`: the
   * pipeline sends the string as is with this Content-Type, and the document declares the same.
   * Without it a schema's answer is `application/json`.
   */
  mediaType?: `text/${string}`;
  /** The body is a file streamed as is (documented as binary), not JSON. */
  stream?: true;
}

export type Responses = Record<number, ResponseSpec>;

type BodyOf<S extends ResponseSpec> = S['schema'] extends z.ZodType
  ? z.input<S['schema']>
  : S['stream'] extends true
    ? ReadableStream<Uint8Array>
    : undefined;

/** The answers a route may give: one per declared status, with that status's body. */
export type Reply<R extends Responses> = {
  [K in keyof R & number]: {
    status: K;
    body?: BodyOf<R[K]>;
    headers?: Record<string, string>;
  } & (R[K] extends {
    schema: z.ZodType;
  }
    ? { body: BodyOf<R[K]> }
    : unknown);
}[keyof R & number];

/** What the pipeline sends: any handler's reply, or a replayed one. */
export interface ApiResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface BaseContext {
  request: Request;
  requestId: string;
  ip: string;
  params: Record<string, string>;
  /** X-Tenant-ID when sent (already checked to be a UUID). */
  tenantHeader: string | null;
}

/**
 * What a tenant operation's handler gets, whichever transport called it: the operation context
 * (tenant-scoped client, tenant, actor, client address) and its validated input. Nothing of the
 * HTTP request: that is what lets the same handler serve REST and tRPC.
 */
export interface OperationInput<B, Q, Path extends string> {
  ctx: OperationContext;
  body: Infer<B>;
  query: Infer<Q>;
  params: PathParams<Path>;
  /**
   * Only for a `restOnly` route, which no other transport runs: the HTTP request as received (its
   * body already read into `body`), its id and the caller's principal. The MCP endpoint hands them
   * to the protocol's transport (server/mcp/serve.ts).
   */
  http?: HttpInput;
}

export interface HttpInput {
  request: Request;
  requestId: string;
  principal: Principal;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;
type ParamNames<S extends string> = S extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;
/** The decoded path parameters of a route path: `/bookings/{id}` → `{ id: string }`. */
export type PathParams<Path extends string> = { [K in ParamNames<Path>]: string };

interface RouteCommon<
  B,
  Q,
  Path extends string,
  R extends Responses,
  Id extends string,
  M extends HttpMethod,
> {
  method: M;
  /** OpenAPI-style path below /api/v1, e.g. `/bookings/{id}`; each `{name}` is a string parameter. */
  path: Path;
  /** The OpenAPI operationId, also the name of the derived tRPC procedure. */
  operationId: Id;
  summary: string;
  tag: string;
  description?: string;
  body?: B;
  query?: Q;
  /** Documented success responses: status → schema (none for no body). */
  responses: R;
  /** Documented error statuses beyond the ones every route of its kind can return. */
  errors?: number[];
  /** The success answer carries a one-time secret (an Idempotency-Key replays it to its sender only). */
  secretResponse?: boolean;
}

export interface TenantRoute<
  B = undefined,
  Q = undefined,
  Path extends string = string,
  R extends Responses = Responses,
  Id extends string = string,
  M extends HttpMethod = HttpMethod,
> extends RouteCommon<B, Q, Path, R, Id, M> {
  auth: 'tenant';
  /** What the caller must be allowed (server/client-safe/permissions.ts); others get 403 forbidden. */
  permission: Permission;
  /**
   * Not offered as a tRPC procedure (a streamed file: the dashboard reads it over REST with its
   * session; the MCP endpoint): its handler also gets `http`.
   */
  restOnly?: boolean;
  /**
   * Also takes an assistant session token (`ast_…`): only the MCP endpoint does. Every other route
   * answers such a token 403 forbidden, whatever its permission.
   */
  acceptsAssistantSession?: true;
  handler: (input: OperationInput<B, Q, Path>) => Promise<Reply<R>>;
}

export interface PublicRoute<
  B = undefined,
  Q = undefined,
  Path extends string = string,
  R extends Responses = Responses,
  Id extends string = string,
  M extends HttpMethod = HttpMethod,
> extends RouteCommon<B, Q, Path, R, Id, M> {
  /** `public`: no credential; X-Tenant-ID optional but checked when sent. */
  auth: 'public';
  /** Read the raw body yourself (signature checks over exact bytes). */
  rawBody?: boolean;
  handler: (
    ctx: BaseContext & {
      body: Infer<B>;
      query: Infer<Q>;
      params: PathParams<Path>;
      rawBody: string;
    },
  ) => Promise<Reply<R>>;
}

// biome-ignore lint/suspicious/noExplicitAny: the route table holds routes of every schema type
export type AnyTenantRoute = TenantRoute<any, any, any, any, any, any>;
// biome-ignore lint/suspicious/noExplicitAny: as above
export type AnyRoute = AnyTenantRoute | PublicRoute<any, any, any, any, any, any>;

export function tenantRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  const Path extends string = string,
  const R extends Responses = Responses,
  const Id extends string = string,
  const M extends HttpMethod = HttpMethod,
>(route: Omit<TenantRoute<B, Q, Path, R, Id, M>, 'auth'>): TenantRoute<B, Q, Path, R, Id, M> {
  return { ...route, auth: 'tenant' };
}

export function publicRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  const Path extends string = string,
  const R extends Responses = Responses,
  const Id extends string = string,
  const M extends HttpMethod = HttpMethod,
>(route: Omit<PublicRoute<B, Q, Path, R, Id, M>, 'auth'>): PublicRoute<B, Q, Path, R, Id, M> {
  return { ...route, auth: 'public' };
}

export const json = <S extends number, T>(status: S, body: T, headers?: Record<string, string>) => ({
  status,
  body,
  headers,
});
export const noContent = () => ({ status: 204 as const });
