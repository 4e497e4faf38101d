// tRPC for the dashboard. The context carries the viewer whose membership was just re-read from the
// database; `protectedProcedure` adds the tenant-scoped client, `permittedProcedure(p)` checks a
// permission as the REST pipeline does.
// Domain code throws `AppError`; the middleware below is the one place that maps those to tRPC
// codes (keeping the API code and field errors for the UI).
import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { ZodError } from 'zod';
import { requirePermission } from '@/server/auth/principal';
import type { Permission } from '@/server/client-safe/permissions';
import { settingsProblems } from '@/server/config/settings';
import { isDatabaseUnavailable } from '@/server/db/unavailable';
import { operationContext } from '@/server/domain/context';
import { assertWithinApiRateLimit } from '@/server/http/api-rate-limit';
import { clientAddressOf } from '@/server/http/client-address';
import { HTTP_STATUS } from '@/server/http/status';
import { AppError, Errors, type FieldError } from '@/server/lib/errors';
import { newRequestId } from '@/server/lib/ids';
import { assertSafeInput } from '@/server/lib/safe-input';
import { logger } from '@/server/log';
import { currentViewer, type Viewer } from './membership';

export interface TrpcContext {
  viewer: Viewer | null;
  /** Logged with an unexpected failure and shown to the user, to quote when reporting it. */
  requestId?: string;
  /** The session could not be checked because the database is unreachable. */
  databaseUnavailable?: boolean;
  /** The trusted client address (docs/decisions.md "Security"), recorded in the audit log. */
  clientAddress?: string;
}

export async function createTrpcContext(opts?: { req?: Request }): Promise<TrpcContext> {
  const requestId = newRequestId();
  const clientAddress = clientAddressOf(opts?.req?.headers.get('x-forwarded-for'));
  try {
    return { viewer: await currentViewer(), requestId, clientAddress };
  } catch (error) {
    // The membership re-check needs the database: without it, every procedure answers 503.
    if (isDatabaseUnavailable(error))
      return { viewer: null, databaseUnavailable: true, requestId, clientAddress };
    throw error;
  }
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
  502: 'BAD_GATEWAY',
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
  errorFormatter({ shape, error, ctx }) {
    const cause = error.cause;
    const appError = cause instanceof AppError ? cause : null;
    const fieldErrors =
      cause instanceof ZodError ? zodFieldErrors(cause) : (appError?.details.errors ?? null);
    return {
      ...shape,
      // Unexpected errors reveal nothing beyond their code.
      message:
        shape.data.code === 'INTERNAL_SERVER_ERROR' ? 'Something went wrong on our side' : shape.message,
      data: {
        ...shape.data,
        stack: undefined,
        apiCode: appError?.code ?? null,
        fieldErrors,
        requestId: ctx?.requestId ?? null,
      },
    };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

const mapDomainErrors = t.middleware(async ({ next, path, ctx }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) return { ...result, error: new DomainTRPCError(cause) };
    if (isDatabaseUnavailable(cause)) {
      logger().warn({ err: cause, path, request_id: ctx.requestId }, 'database unavailable');
      return { ...result, error: new DomainTRPCError(Errors.unavailable()) };
    }
    if (result.error.code === 'INTERNAL_SERVER_ERROR')
      logger().error(
        { err: cause ?? result.error, path, request_id: ctx.requestId },
        'trpc procedure failed',
      );
  }
  return result;
});

const refuseWhenUnavailable = t.middleware(({ ctx, next }) => {
  if (settingsProblems().length > 0) throw Errors.misconfigured();
  if (ctx.databaseUnavailable) throw Errors.unavailable();
  return next();
});

/**
 * Input with a NUL character or a reserved key is refused like a REST body. This is
 * where the request body is first read (through the 1 MiB limit of server/trpc/http-handler.ts): for
 * a protected procedure, only after the session check, as REST checks the credential first.
 */
const refuseUnsafeInput = t.middleware(async ({ getRawInput, next }) => {
  assertSafeInput(await getRawInput());
  return next();
});

const serviceProcedure = t.procedure.use(mapDomainErrors).use(refuseWhenUnavailable);

export const publicProcedure = serviceProcedure.use(refuseUnsafeInput);

const signedInWithTenant = t.middleware(({ ctx, next }) => {
  const viewer = ctx.viewer;
  if (!viewer) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in first' });
  if (!viewer.tenantId || !viewer.role)
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Choose a tenant first' });
  // The procedure's context is an OperationContext: domain calls take `ctx` as it is.
  return next({
    ctx: {
      ...operationContext(viewer.tenantId, { type: 'user', id: viewer.userId }, ctx.clientAddress),
      source: 'dashboard' as const,
      permissions: viewer.permissions,
      viewer,
      role: viewer.role,
      userId: viewer.userId,
    },
  });
});

/**
 * Each call (each call of a batch too) counts against the caller's API rate limit as a REST request
 * does (server/http/api-rate-limit.ts), before its input is read: 429 TOO_MANY_REQUESTS (apiCode
 * `rate_limited`), with Retry-After on the answer (server/trpc/http-handler.ts).
 */
export const protectedProcedure = serviceProcedure
  .use(signedInWithTenant)
  .use(async ({ ctx, next }) => {
    await assertWithinApiRateLimit({
      kind: 'user',
      tenantId: ctx.tenantId,
      role: ctx.role,
      userId: ctx.userId,
      permissions: ctx.permissions,
    });
    return next();
  })
  .use(refuseUnsafeInput);

/** A procedure for those whose role holds `permission` (server/client-safe/permissions.ts), as REST checks it. */
export function permittedProcedure(permission: Permission) {
  return protectedProcedure.use(({ ctx, next }) => {
    requirePermission(ctx.viewer, permission);
    return next();
  });
}
