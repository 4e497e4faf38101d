import type { Span } from '@opentelemetry/api';
import { authenticate, type Principal, requirePermission } from '@/server/auth/principal';
import { settingsProblems } from '@/server/config/settings';
import { isDatabaseUnavailable } from '@/server/db/unavailable';
import { MANAGE_TOKEN_PREFIX } from '@/server/domain/bookings/manage-link';
import { type Actor, operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { AppError, Errors } from '@/server/lib/errors';
import { isUuid, newRequestId } from '@/server/lib/ids';
import { assertSafeInput } from '@/server/lib/safe-input';
import { withRequestSpan } from '@/server/lib/tracing';
import { validate } from '@/server/lib/validate';
import { logger } from '@/server/log';
import { observeHttpRequest } from '@/server/metrics/registry';
import { assertWithinApiRateLimit, assertWithinVisitorRateLimit } from './api-rate-limit';
import { isJsonContentType, parseJsonBody, readBodyText } from './body';
import { clientAddressOf } from './client-address';
import { HttpErrors } from './errors';
import { withIdempotency } from './idempotency';
import { internalErrorResponse, problemResponse } from './problem';
import type { AnyRoute, AnyVisitorRoute, ApiResult, BaseContext, Responses } from './route';
import { withSecurityHeaders } from './security-headers';

export const API_PREFIX = '/api/v1';

/**
 * How a request reaches the routes: the public API (`/api/v1`, a bearer credential and
 * X-Tenant-ID), or the dashboard's twin of a REST-only route (`/api/dashboard/v1`: the signed-in
 * member's session is the credential and names the tenant; only GET, only `restOnly` routes such as
 * a streamed file, since everything else reaches the dashboard as a tRPC procedure).
 */
export interface Entry {
  prefix: string;
  /** The session's principal, or throws 401; unset for the public API. */
  session?: () => Promise<Principal>;
}

const PUBLIC_API: Entry = { prefix: API_PREFIX };

interface CompiledRoute {
  route: AnyRoute;
  pattern: RegExp;
  names: string[];
}

export function compileRoutes(routes: AnyRoute[]): CompiledRoute[] {
  return routes.map((route) => {
    const names: string[] = [];
    const source = route.path
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{(\w+)\}/g, (_: string, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
    return { route, pattern: new RegExp(`^${source}$`), names };
  });
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The wrapper every /api/v1 request goes through; see docs/architecture.md "Request pipeline". */
export function handleApiRequest(
  request: Request,
  table: CompiledRoute[],
  entry: Entry = PUBLIC_API,
): Promise<Response> {
  // One span per request when tracing is on; deliveries written inside it keep its trace context.
  return withRequestSpan(request.method, (span) => handle(request, table, span, entry));
}

async function handle(request: Request, table: CompiledRoute[], span: Span, entry: Entry): Promise<Response> {
  const started = performance.now();
  const sent = request.headers.get('x-request-id');
  const requestId = sent && REQUEST_ID.test(sent) ? sent : newRequestId();
  const url = new URL(request.url);
  let response: Response;
  let tenantId: string | undefined;
  // The matched route's template labels the request metrics (never the raw path or the tenant).
  let routeTemplate = 'unmatched';
  // What the log shows of the path: a credential in it (a manage token) is redacted.
  let loggedPath = withoutManageTokens(url.pathname);
  let cors = false;
  try {
    // A deployment missing a required setting refuses every request (docs/operations.md "Running it in production": one clear line
    // per problem at start; /api/health names them).
    if (settingsProblems().length > 0) throw Errors.misconfigured();
    const result = await dispatch(
      request,
      url,
      requestId,
      table,
      entry,
      (id) => {
        tenantId = id;
      },
      (match) => {
        loggedPath = match.loggedPath;
        cors = match.cors;
        if (!match.template) return;
        routeTemplate = match.template;
        span.updateName(`${request.method} /api/v1${match.template}`);
        span.setAttribute('http.route', `/api/v1${match.template}`);
      },
    );
    response = toResponse(result, requestId);
  } catch (error) {
    if (error instanceof AppError) {
      response = problemResponse(error, requestId);
    } else if (isDatabaseUnavailable(error)) {
      logger().warn({ err: error, request_id: requestId }, 'database unavailable: answered 503');
      response = problemResponse(Errors.unavailable(), requestId);
    } else {
      logger().error(
        { err: error, request_id: requestId, method: request.method, path: loggedPath },
        'unhandled error',
      );
      response = internalErrorResponse(requestId);
    }
  }
  span.setAttribute('http.response.status_code', response.status);
  const method = METHODS.has(request.method) ? request.method : 'OTHER'; // a bounded label set
  observeHttpRequest(method, routeTemplate, response.status, (performance.now() - started) / 1000);
  logger().info(
    {
      request_id: requestId,
      method: request.method,
      path: loggedPath,
      status: response.status,
      tenant_id: tenantId,
      ms: Math.round((performance.now() - started) * 10) / 10,
    },
    'request',
  );
  if (cors) for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
  return withSecurityHeaders(response);
}

/**
 * Every answer of a visitor route, errors included, may be read by a page of any origin: no cookie or
 * credential is ever read on these routes, so nothing is exposed that the open request does not
 * already get (docs/decisions.md "The booking page").
 */
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'X-Request-Id, Idempotent-Replayed, Retry-After',
};

/** A browser's preflight of a visitor route: any origin, the path's methods, the headers it reads. */
function preflight(methods: string[]): ApiResult {
  return {
    status: 204,
    headers: {
      'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
      'Access-Control-Allow-Headers': 'Content-Type, Idempotency-Key, X-Request-Id',
      'Access-Control-Max-Age': '86400',
    },
  };
}

interface RouteMatch {
  /** The template of the route served (metrics, spans); none for a preflight or a 405. */
  template?: string;
  loggedPath: string;
  cors: boolean;
}

/**
 * A manage token pasted into any path (a customer's link is a credential wherever it turns up) is
 * never logged: whatever has its prefix is cut at it.
 */
function withoutManageTokens(path: string): string {
  return path.replace(MANAGE_TOKEN_IN_PATH, `${MANAGE_TOKEN_PREFIX}[redacted]`);
}
const MANAGE_TOKEN_IN_PATH = new RegExp(`${MANAGE_TOKEN_PREFIX}[^/]*`, 'g');

/** The path as the log shows it: the route's secret parameters (a manage token) redacted. */
function loggablePath(prefix: string, route: AnyRoute, names: string[], match: RegExpExecArray): string {
  const secret: string[] = route.auth === 'visitor' ? (route.secretParams ?? []) : [];
  if (!names.some((name) => secret.includes(name))) return withoutManageTokens(`${prefix}${match.input}`);
  let i = 0;
  return `${prefix}${route.path.replace(/\{(\w+)\}/g, (_whole: string, name: string) => {
    i++;
    return secret.includes(name) ? '[redacted]' : match[i];
  })}`;
}

function toResponse(result: ApiResult, requestId: string): Response {
  const headers = { 'X-Request-Id': requestId, ...result.headers };
  if (result.body === undefined) return new Response(null, { status: result.status, headers });
  if (result.body instanceof ReadableStream)
    return new Response(result.body, { status: result.status, headers });
  // A route that declares a text media type sends its string as is (the calendar feed, the WhatsApp echo).
  if (typeof result.body === 'string' && result.headers?.['Content-Type']?.startsWith('text/')) {
    return new Response(result.body, { status: result.status, headers });
  }
  return new Response(JSON.stringify(result.body), {
    status: result.status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

async function dispatch(
  request: Request,
  url: URL,
  requestId: string,
  table: CompiledRoute[],
  entry: Entry,
  onTenant: (id: string) => void,
  onRoute: (match: RouteMatch) => void,
): Promise<ApiResult> {
  const path = url.pathname.slice(entry.prefix.length).replace(/\/+$/, '') || '/';
  const method = request.method.toUpperCase();
  const reachable = entry.session
    ? table.filter((c) => c.route.auth === 'tenant' && c.route.restOnly && c.route.method === 'GET')
    : table;
  const matches = reachable
    .map((compiled) => ({ compiled, match: compiled.pattern.exec(path) }))
    .filter((m): m is { compiled: CompiledRoute; match: RegExpExecArray } => m.match !== null);
  if (matches.length === 0) throw HttpErrors.routeNotFound();
  const [first] = matches;
  const cors = first.compiled.route.auth === 'visitor';
  const methods = [...new Set(matches.map((m) => m.compiled.route.method))];
  const logged = loggablePath(entry.prefix, first.compiled.route, first.compiled.names, first.match);
  onRoute({ loggedPath: logged, cors });
  if (method === 'OPTIONS' && cors) return preflight(methods);
  const hit = matches.find((m) => m.compiled.route.method === method);
  if (!hit) throw HttpErrors.methodNotAllowed(methods);

  const { route } = hit.compiled;
  onRoute({ template: route.path, loggedPath: logged, cors });
  const params: Record<string, string> = {};
  hit.compiled.names.forEach((name, i) => {
    params[name] = decodePathSegment(hit.match[i + 1]);
  });

  // Tenancy is checked before the credential (docs/integrators.md, "Credentials"). A dashboard session names its own tenant.
  const tenantHeader = request.headers.get('x-tenant-id');
  if (tenantHeader !== null && !isUuid(tenantHeader.trim())) throw HttpErrors.tenantHeaderInvalid();
  if (route.auth === 'tenant' && tenantHeader === null && !entry.session)
    throw HttpErrors.tenantHeaderMissing();
  const base: BaseContext = {
    request,
    requestId,
    ip: clientAddressOf(request.headers.get('x-forwarded-for')),
    params,
    tenantHeader: tenantHeader?.trim().toLowerCase() ?? null,
  };

  if (route.auth === 'public') {
    const input = await readInput(route, request, url, Boolean(route.rawBody));
    return withDeclaredMediaType(route, await route.handler({ ...base, ...input, params }));
  }
  if (route.auth === 'visitor') return dispatchVisitor(route, request, url, base, path, onTenant);

  const principal = entry.session
    ? await entry.session()
    : await authenticate(request.headers.get('authorization'));
  const tenantId = entry.session ? principal.tenantId : (base.tenantHeader as string);
  if (principal.tenantId !== (base.tenantHeader ?? tenantId)) throw Errors.tenantMismatch();
  onTenant(tenantId);
  // An assistant session token is a credential for the MCP endpoint only (docs/decisions.md).
  if (principal.kind === 'assistant_session' && !route.acceptsAssistantSession)
    throw Errors.forbidden('An assistant session token (ast_…) is valid only on POST /api/v1/mcp');
  await assertWithinApiRateLimit(principal);
  requirePermission(principal, route.permission);

  const { rawBody, body, query } = await readInput(route, request, url, false);
  const idempotencyKey = method === 'POST' ? request.headers.get('idempotency-key') : null;
  const ctx = {
    ...operationContext(tenantId, actorOf(principal), base.ip),
    permissions: principal.permissions,
    ...(idempotencyKey !== null ? { requestKey: idempotencyKey } : {}),
  };
  const http = route.restOnly ? { http: { request, requestId, principal } } : {};
  const run = async () =>
    withDeclaredMediaType(route, await route.handler({ ctx, body, query, params, ...http }));

  if (idempotencyKey !== null) {
    const credential = ctx.actor.type === 'system' ? 'system' : `${ctx.actor.type}:${ctx.actor.id}`;
    const secretResponse = Boolean(route.secretResponse);
    return withIdempotency(
      { db: ctx.db, tenantId, credential, secretResponse, key: idempotencyKey, method, path, rawBody },
      run,
    );
  }
  return run();
}

/**
 * A visitor route (server/http/route.ts `VisitorRoute`): the client address's limit, what the path
 * names (404 when nothing live), the input, then the handler in an operation context of that tenant.
 * An Idempotency-Key is kept in the tenant's key space under a `visitor:` prefix, so a visitor can
 * neither replay nor block a key of the tenant's own integrations; its answer (a manage link) replays
 * to whoever repeats the key with the very same body, as a retry from a phone that changed network is.
 */
async function dispatchVisitor(
  route: AnyVisitorRoute,
  request: Request,
  url: URL,
  base: BaseContext,
  path: string,
  onTenant: (id: string) => void,
): Promise<ApiResult> {
  await assertWithinVisitorRateLimit(base.ip);
  const subject = await route.subject(base.params);
  if (!subject) throw Errors.notFound();
  onTenant(subject.tenantId);
  const { rawBody, body, query } = await readInput(route, request, url, false);
  const method = request.method.toUpperCase();
  const idempotencyKey = method === 'POST' ? request.headers.get('idempotency-key') : null;
  // The customer acts through the service: nothing of theirs goes in the tenant's audit log.
  const ctx = {
    ...operationContext(subject.tenantId, SYSTEM_ACTOR, base.ip),
    source: 'booking_page' as const,
  };
  const run = async () =>
    withDeclaredMediaType(route, await route.handler({ ctx, body, query, params: base.params, subject }));
  if (idempotencyKey === null) return run();
  return withIdempotency(
    {
      db: ctx.db,
      tenantId: subject.tenantId,
      credential: 'visitor',
      secretResponse: false,
      key: idempotencyKey,
      scope: 'visitor',
      method,
      path,
      rawBody,
    },
    run,
  );
}

/** A text answer goes out with the media type its route declares for that status (as the document says). */
function withDeclaredMediaType(route: AnyRoute, result: ApiResult): ApiResult {
  const mediaType = (route.responses as Responses)[result.status]?.mediaType;
  if (!mediaType) return result;
  return { ...result, headers: { ...result.headers, 'Content-Type': mediaType } };
}

/**
 * Body (413/415/400/422) and query (422) of a request; `keepRaw` leaves the body unparsed for
 * signature checks.
 */
async function readInput(route: AnyRoute, request: Request, url: URL, keepRaw: boolean) {
  const method = request.method.toUpperCase();
  const rawBody = method === 'GET' || method === 'DELETE' ? '' : await readBodyText(request);
  let body: unknown;
  if (keepRaw) {
    // A signed webhook is read as bytes, but it is JSON like every body (415 otherwise).
    if (rawBody.length > 0 && !isJsonContentType(request.headers.get('content-type'))) {
      throw HttpErrors.unsupportedMediaType();
    }
  } else {
    const parsed = parseJsonBody(rawBody, request.headers.get('content-type'));
    assertSafeInput(parsed);
    // Only a missing body reads as {}: a JSON null is a body, and not the object a route takes (422).
    body = route.body ? validate(route.body, parsed === undefined ? {} : parsed) : undefined;
  }
  const search = Object.fromEntries(url.searchParams);
  assertSafeInput(search);
  const query = route.query ? validate(route.query, search) : undefined;
  return { rawBody, body, query };
}

function actorOf(principal: Principal): Actor {
  switch (principal.kind) {
    case 'api_key':
      return { type: 'api_key', id: principal.keyId };
    case 'user':
      return { type: 'user', id: principal.userId };
    case 'assistant_session':
      return { type: 'assistant_session', id: principal.sessionId };
  }
}

/** A malformed escape (`%E0%A4%A`) names no resource: 404, not a URIError turned 500. */
function decodePathSegment(segment: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    throw Errors.notFound();
  }
  // No id holds a NUL (PostgreSQL text cannot): such a path names no resource.
  if (decoded.includes('\u0000')) throw Errors.notFound();
  return decoded;
}
