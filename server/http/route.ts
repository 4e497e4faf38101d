import type { z } from 'zod';
import type { Principal } from '@/server/auth/principal';
import type { Role } from '@/server/db/generated/enums';
import type { TenantDb } from '@/server/db/tenant-scope';

/**
 * One REST operation, declared once: the router dispatches it, the wrapper enforces its tenancy,
 * credential, role and schemas, and the OpenAPI document is generated from the same object.
 */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

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
  tenantId: string;
  principal: Principal;
  db: TenantDb;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;
type Params<P> = P extends z.ZodType ? z.output<P> : Record<string, string>;

interface RouteCommon<B, Q, P> {
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
  /** Documented success responses: status → schema (undefined for no body). */
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  /** Documented error statuses beyond the ones every route of its kind can return. */
  errors?: number[];
}

export interface TenantRoute<B = undefined, Q = undefined, P = undefined> extends RouteCommon<B, Q, P> {
  auth: 'tenant';
  /** Minimum role; `admin` routes refuse agents with 403 forbidden. */
  role: Role;
  handler: (
    ctx: TenantContext & { body: Infer<B>; query: Infer<Q>; params: Params<P> },
  ) => Promise<ApiResult>;
}

export interface PublicRoute<B = undefined, Q = undefined, P = undefined> extends RouteCommon<B, Q, P> {
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
  ) => Promise<ApiResult>;
}

// biome-ignore lint/suspicious/noExplicitAny: the route table holds routes of every schema type
export type AnyRoute = TenantRoute<any, any, any> | PublicRoute<any, any, any>;

export function tenantRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(route: Omit<TenantRoute<B, Q, P>, 'auth'>): TenantRoute<B, Q, P> {
  return { ...route, auth: 'tenant' };
}

export function publicRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(route: Omit<PublicRoute<B, Q, P>, 'auth'>): PublicRoute<B, Q, P> {
  return { ...route, auth: 'public' };
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): ApiResult => ({
  status,
  body,
  headers,
});
export const noContent = (): ApiResult => ({ status: 204 });
