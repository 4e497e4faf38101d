import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import superjson from 'superjson';
import { ZodError, z } from 'zod';
import { forTenant } from '@/server/db/tenant-scope';
import { ApiError, type FieldError } from '@/server/http/errors';
import { logger } from '@/server/log';
import { currentViewer, type Viewer } from './membership';

/**
 * tRPC for the dashboard. The context carries the viewer whose membership was just re-read from
 * the database; `protectedProcedure` adds the tenant-scoped client, `adminProcedure` refuses
 * agents. Domain code throws `ApiError`; the middleware below is the one place that maps those
 * to tRPC codes (keeping the API code and field errors for the UI).
 */
export interface TrpcContext {
  viewer: Viewer | null;
}

export async function createTrpcContext(): Promise<TrpcContext> {
  return { viewer: await currentViewer() };
}

const CODES: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

export class DomainTRPCError extends TRPCError {
  constructor(readonly apiError: ApiError) {
    super({
      code: CODES[apiError.status] ?? 'INTERNAL_SERVER_ERROR',
      message: apiError.message,
      cause: apiError,
    });
  }
}

function zodFieldErrors(error: ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(input)',
    message: issue.message,
  }));
}

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const apiError = cause instanceof ApiError ? cause : null;
    const fieldErrors = cause instanceof ZodError ? zodFieldErrors(cause) : (apiError?.extra.errors ?? null);
    return {
      ...shape,
      // Unexpected errors reveal nothing beyond their code.
      message:
        shape.data.code === 'INTERNAL_SERVER_ERROR' ? 'Something went wrong on our side' : shape.message,
      data: { ...shape.data, stack: undefined, apiCode: apiError?.code ?? null, fieldErrors },
    };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

const mapDomainErrors = t.middleware(async ({ next, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof ApiError) return { ...result, error: new DomainTRPCError(cause) };
    if (result.error.code === 'INTERNAL_SERVER_ERROR')
      logger().error({ err: cause ?? result.error, path }, 'trpc procedure failed');
  }
  return result;
});

export const publicProcedure = t.procedure.use(mapDomainErrors);

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  const viewer = ctx.viewer;
  if (!viewer) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in first' });
  if (!viewer.tenantId || !viewer.role)
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Choose a tenant first' });
  return next({
    ctx: {
      viewer,
      tenantId: viewer.tenantId,
      role: viewer.role,
      userId: viewer.userId,
      db: forTenant(viewer.tenantId),
    },
  });
});

export const adminProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (ctx.role !== 'admin') throw new TRPCError({ code: 'FORBIDDEN', message: 'Only admins can do this' });
  return next();
});

/** Shared inputs. */
export const IdInput = z.object({ id: z.string().min(1).max(100) });

/**
 * The page size of a dashboard list, to `.extend()` a REST list query's `.partial()` with: the
 * REST default of 20 would otherwise win over the dashboard's.
 */
export function dashboardPage(pageSize: number) {
  return { limit: z.number().int().min(1).max(100).default(pageSize) };
}
