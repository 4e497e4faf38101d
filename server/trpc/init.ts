// tRPC for the dashboard. The context carries the viewer whose membership was just re-read from the
// database; `protectedProcedure` adds the tenant-scoped client, `adminProcedure` refuses agents.
// Domain code throws `AppError`; the middleware below is the one place that maps those to tRPC
// codes (keeping the API code and field errors for the UI).
import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import superjson from 'superjson';
import { ZodError, z } from 'zod';
import { operationContext } from '@/server/domain/context';
import { HTTP_STATUS } from '@/server/http/status';
import { AppError, type FieldError } from '@/server/lib/errors';
import { logger } from '@/server/log';
import { currentViewer, type Viewer } from './membership';

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
  constructor(readonly appError: AppError) {
    super({
      code: CODES[HTTP_STATUS[appError.code]] ?? 'INTERNAL_SERVER_ERROR',
      message: appError.message,
      cause: appError,
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
    const appError = cause instanceof AppError ? cause : null;
    const fieldErrors =
      cause instanceof ZodError ? zodFieldErrors(cause) : (appError?.details.errors ?? null);
    return {
      ...shape,
      // Unexpected errors reveal nothing beyond their code.
      message:
        shape.data.code === 'INTERNAL_SERVER_ERROR' ? 'Something went wrong on our side' : shape.message,
      data: { ...shape.data, stack: undefined, apiCode: appError?.code ?? null, fieldErrors },
    };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

const mapDomainErrors = t.middleware(async ({ next, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) return { ...result, error: new DomainTRPCError(cause) };
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
  // The procedure's context is an OperationContext: domain calls take `ctx` as it is.
  return next({
    ctx: {
      ...operationContext(viewer.tenantId, { type: 'user', id: viewer.userId }),
      viewer,
      role: viewer.role,
      userId: viewer.userId,
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
