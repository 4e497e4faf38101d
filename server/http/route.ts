// One REST operation, declared once: the router dispatches it, the pipeline enforces its
// tenancy, credential, role and schemas, and the OpenAPI document is generated from the same
// object. A handler's answer is typed by the route's declared `responses`: a status it does not
// declare, or a body that does not fit that status's schema, does not compile.
import type { z } from 'zod';
import type { Principal } from '@/server/auth/principal';
import type { Role } from '@/server/db/generated/enums';
import type { OperationContext } from '@/server/domain/context';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
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

export interface TenantContext extends BaseContext {
  /** The operation context every domain call takes: tenant-scoped client, tenant, actor. */
  ctx: OperationContext;
  principal: Principal;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;
type Params<P> = P extends z.ZodType ? z.output<P> : Record<string, string>;

interface RouteCommon<B, Q, P, R extends Responses> {
  method: HttpMethod;
  /** OpenAPI-style path below /api/v1, e.g. `/bookings/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  description?: string;
  body?: B;
  query?: Q;
  params?: P;
  /** Documented success responses: status → schema (none for no body). */
  responses: R;
  /** Documented error statuses beyond the ones every route of its kind can return. */
  errors?: number[];
  /** The success answer carries a one-time secret (an Idempotency-Key replays it to its sender only). */
  secretResponse?: boolean;
}

export interface TenantRoute<B = undefined, Q = undefined, P = undefined, R extends Responses = Responses>
  extends RouteCommon<B, Q, P, R> {
  auth: 'tenant';
  /** Minimum role; `admin` routes refuse agents with 403 forbidden. */
  role: Role;
  handler: (ctx: TenantContext & { body: Infer<B>; query: Infer<Q>; params: Params<P> }) => Promise<Reply<R>>;
}

export interface PublicRoute<B = undefined, Q = undefined, P = undefined, R extends Responses = Responses>
  extends RouteCommon<B, Q, P, R> {
  /** `public`: no credential; X-Tenant-ID optional but checked when sent. */
  auth: 'public';
  /** Read the raw body yourself (signature checks over exact bytes). */
  rawBody?: boolean;
  handler: (
    ctx: BaseContext & {
      body: Infer<B>;
      query: Infer<Q>;
      params: Infer<P> & Record<string, string>;
      rawBody: string;
    },
  ) => Promise<Reply<R>>;
}

// biome-ignore lint/suspicious/noExplicitAny: the route table holds routes of every schema type
export type AnyRoute = TenantRoute<any, any, any, any> | PublicRoute<any, any, any, any>;

export function tenantRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  const R extends Responses = Responses,
>(route: Omit<TenantRoute<B, Q, P, R>, 'auth'>): TenantRoute<B, Q, P, R> {
  return { ...route, auth: 'tenant' };
}

export function publicRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  const R extends Responses = Responses,
>(route: Omit<PublicRoute<B, Q, P, R>, 'auth'>): PublicRoute<B, Q, P, R> {
  return { ...route, auth: 'public' };
}

export const json = <S extends number, T>(status: S, body: T, headers?: Record<string, string>) => ({
  status,
  body,
  headers,
});
export const noContent = () => ({ status: 204 as const });
