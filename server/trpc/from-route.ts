// The dashboard's procedures, derived from the REST routes: a route is declared once
// (server/http/route.ts) and this turns it into a tRPC procedure with the same input schema, the
// same permission and the same answer. Its input is the route's path parameters, by their REST
// names, merged with its body (POST, PATCH, PUT) or query (GET); it is validated by the route's own
// schemas through the same `validate()` as REST, so limits and field errors are identical. It
// answers the route's success body (`null` for a 204). GET routes become queries, others mutations.
import type { TRPCMutationProcedure, TRPCQueryProcedure } from '@trpc/server';
import type { z } from 'zod';
import type { Permission } from '@/server/client-safe/permissions';
import type { AnyRoute, AnyTenantRoute, PathParams, Responses } from '@/server/http/route';
import { runRoute } from '@/server/http/route-input';
import { createTRPCRouter, protectedProcedure } from './init';

type Schema<S> = Exclude<S, undefined>;
type InputOf<S> = [Schema<S>] extends [never]
  ? unknown
  : [Schema<S>] extends [z.ZodType]
    ? z.input<Schema<S>>
    : unknown;
type Merge<A, B> = unknown extends B ? A : A & B;

/** Nothing to send: the procedure is called without input. */
type NoneIfEmpty<T> = keyof T extends never ? undefined : T;

/** The input a derived procedure takes: path parameters plus body or query fields. */
type RouteInput<R extends AnyTenantRoute> = NoneIfEmpty<
  Merge<Merge<PathParams<R['path']>, InputOf<R['body']>>, InputOf<R['query']>>
>;

type SuccessBody<R extends Responses> = {
  [K in keyof R & number]: R[K] extends { schema: z.ZodType } ? z.input<R[K]['schema']> : null;
}[keyof R & number];

/** What a derived procedure answers: the body of one of the route's declared responses. */
type RouteOutput<R extends AnyTenantRoute> = SuccessBody<R['responses']>;

type Def<R extends AnyTenantRoute> = { input: RouteInput<R>; output: RouteOutput<R>; meta: object };

/** The procedure of one route: a query for GET, a mutation otherwise. */
type ProcedureOf<R extends AnyTenantRoute> = R extends { method: 'GET' }
  ? TRPCQueryProcedure<Def<R>>
  : TRPCMutationProcedure<Def<R>>;

/** Tenant routes only (a public one has no session to check), and not those that are REST only (a streamed file). */
type Derivable<R> = R extends AnyTenantRoute ? (R extends { restOnly: true } ? never : R) : never;

export type ProceduresOf<Routes extends readonly AnyRoute[]> = {
  [R in Derivable<Routes[number]> as R['operationId']]: ProcedureOf<R>;
};

export function procedureFrom<R extends AnyTenantRoute>(route: R): ProcedureOf<R> {
  // The input reaches the resolver as sent: runRoute checks the permission before it validates it.
  const procedure = protectedProcedure.input((raw) => raw);
  const resolve = ({
    ctx,
    input,
  }: {
    ctx: Parameters<R['handler']>[0]['ctx'] & { viewer: { permissions: readonly Permission[] } };
    input: unknown;
  }) => runRoute(route, { ctx, permissions: ctx.viewer.permissions, raw: input });
  const built = route.method === 'GET' ? procedure.query(resolve) : procedure.mutation(resolve);
  return built as unknown as ProcedureOf<R>;
}

/** A router of every derivable route of a module, each procedure named by the route's operationId. */
export function routerFrom<const Routes extends readonly AnyRoute[]>(routes: Routes) {
  const procedures = Object.fromEntries(
    routes
      .filter((route): route is AnyTenantRoute => route.auth === 'tenant' && !route.restOnly)
      .map((route) => [route.operationId, procedureFrom(route)]),
  );
  return createTRPCRouter(procedures as ProceduresOf<Routes>);
}
