// The OpenAPI 3.1 document, generated from the route table and its zod schemas, so it cannot drift
// from what the API validates and answers.
import { OpenAPIRegistry, OpenApiGeneratorV31, zodToOpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { EVENT_TYPES } from '@/server/client-safe/event-catalog';
import { rolesWith } from '@/server/client-safe/permissions';
import { envelopeSchema, exampleEnvelope } from '@/server/events/payloads';
import type { AnyRoute, Responses } from '@/server/http/route';
import './components';
import { VISITOR_TAG } from './openapi-tags';
import { Problem } from './schemas/common';

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request: tenant_header_missing, tenant_header_invalid, invalid_json, tenant_required',
  401: 'unauthenticated / token_expired (WWW-Authenticate: Bearer error="invalid_token")',
  403:
    'tenant_mismatch (credential of another tenant) or forbidden (the credential lacks the x-permission, ' +
    'named in detail; or an assistant session token outside POST /mcp)',
  404: 'not_found (also for another tenant’s resource)',
  405: 'method_not_allowed',
  406: 'not_acceptable (the MCP endpoint: send Accept: application/json, text/event-stream)',
  409: 'invalid_transition, idempotency_key_reused or another conflict',
  413: 'payload_too_large (body over 1 MiB)',
  415: 'unsupported_media_type (bodies must be application/json)',
  422: 'validation_failed, with errors[]',
  429: 'rate_limited, with Retry-After',
  500: 'internal_error (request_id only, never internals)',
  502: 'payment_provider_unavailable (Stripe did not answer; nothing was recorded, retry) or media_unavailable',
  503: 'service_unavailable, with Retry-After (the database cannot be reached, or the server is misconfigured)',
};

/** Conventions and the decisions taken where the public contract is silent (also in docs/decisions.md). */
const API_CONVENTIONS = [
  'Multi-tenant bookings, conversations, payments and signed webhooks.',
  '',
  '- **Tenancy**: every request names its tenant in `X-Tenant-ID` (UUID), checked before the credential; ' +
    'exempt: `/auth/*` (optional there, must match when sent), this document, the WhatsApp webhook and ' +
    "the Stripe webhook (its path names the tenant; Stripe's signature authenticates it).",
  '- **Credentials**: `Authorization: Bearer <API key | access token | assistant session token>`. API keys ' +
    '(`sk_live_<prefix>_<secret>`) hold every permission of the `admin` role, or (restricted keys) only the ' +
    '`permissions` they were created with. Access tokens are HS256 JWTs ' +
    'valid 30 minutes (issuer `switchboard`, audience `switchboard-api`), with the person’s role; a password ' +
    'reset, or a refresh token presented twice, ends the person’s access tokens issued before it at once ' +
    '(401). Assistant session tokens (`ast_…`, `POST /conversations/{id}/assistant-sessions`) work on ' +
    '`POST /mcp` only.',
  '- **Permissions**: every operation that takes a credential names the permission it needs as ' +
    '`x-permission` (and in its description, with the roles that hold it); a credential without it gets ' +
    '403 `forbidden` whose `detail` names it, and nothing changes.',
  '- **Errors**: RFC 9457 `application/problem+json` with `code`, `detail` and `request_id`; validation ' +
    'failures are 422 `validation_failed` with `errors[]`. Unknown methods on a known path answer 405 with ' +
    '`Allow`.',
  '- **Lists**: `?limit=` (1..100, default 20) and `?cursor=` (opaque); `{data, next_cursor}`, newest first.',
  '- **Idempotency-Key** (POST, ≤ 255 characters, per tenant, 24 h): the same key and body replay the ' +
    'first response (success or 4xx refusal) with `Idempotent-Replayed: true`; another body gets 409 ' +
    '`idempotency_key_reused`; a request arriving while the first still runs waits up to 10 s, then 409 ' +
    '`idempotency_key_in_use`; a 5xx releases the key. Expired keys and their stored answers are deleted ' +
    'within 10 minutes.',
  '- **Rate limits**: 100 requests per second per credential; password attempts per 15 minutes, 10 per ' +
    'email and client address, 100 per email from all addresses and 50 per client address, each counted ' +
    'before the password is checked; a success does not count (429 `rate_limited` with `Retry-After`).',
  '- **Request ids**: every response carries `X-Request-Id` (the caller’s when it is 1–128 of ' +
    '`[A-Za-z0-9._:-]`).',
  '- **The booking page** (`/public/…`, tag Booking page): the JSON a tenant’s customers use from a browser, ' +
    'with no credential and no `X-Tenant-ID` (the path names the public service or the manage link, and so the ' +
    'tenant). Every answer carries `Access-Control-Allow-Origin: *` and the POSTs’ preflight allows any origin; ' +
    'each client address may make `PUBLIC_RATE_LIMIT_PER_SECOND` requests a second (20) and ' +
    '`PUBLIC_BOOKINGS_PER_HOUR` bookings an hour (10), then 429; POSTs honour `Idempotency-Key` (kept apart ' +
    'from the tenant’s own keys).',
  '- **AI assistants**: `POST /api/v1/mcp` serves the Model Context Protocol (stateless Streamable HTTP) ' +
    'with tools that run these same operations, authenticated like every route (see that operation).',
].join('\n');

export function buildOpenApiDocument(routes: AnyRoute[]) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key (sk_live_…: a full key holds every permission of the admin role, a restricted key its ' +
      'own), a 30-minute access token from POST /auth/login, or, on POST /mcp only, an assistant session ' +
      'token (ast_…)',
  });
  const tenantHeader = z.string().uuid().meta({ description: 'The tenant every request acts on (UUID)' });

  for (const route of routes) {
    const hasBody = route.body !== undefined;
    // What the pipeline (server/http/dispatch.ts) can answer on its own, on top of the route's errors.
    const statuses = new Set<number>([
      ...(route.errors ?? []),
      500,
      // The database out of reach, or a required setting missing: every route.
      503,
      // A query string holding what no input may (NUL, a lone surrogate) is refused on every route.
      422,
      // Public routes check X-Tenant-ID too when it is sent (400 tenant_header_invalid); a credential
      // has its own request budget (429), and so has a visitor's client address, whose route names
      // something that may not exist (404).
      ...(route.auth === 'tenant'
        ? [400, 401, 403, 429]
        : route.auth === 'visitor'
          ? [400, 404, 429]
          : [400]),
      // A body is read (and so can be too large, of another media type, or malformed) whatever
      // the method, but GET and DELETE, whether or not the operation takes one.
      ...(route.method === 'GET' || route.method === 'DELETE' ? [] : [400, 413, 415]),
    ]);
    if (route.method === 'POST' && route.auth !== 'public') statuses.add(409);
    if (route.path.includes('{')) statuses.add(404);

    const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const responses: Record<string, object> = {};
    for (const [status, spec] of Object.entries(route.responses as Responses)) {
      responses[status] = spec.schema
        ? {
            description: spec.description,
            content: { [spec.mediaType ?? 'application/json']: { schema: spec.schema } },
          }
        : spec.stream
          ? {
              description: spec.description,
              content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
            }
          : { description: spec.description };
    }
    for (const status of [...statuses].sort()) {
      responses[String(status)] = {
        description: ERROR_TEXT[status] ?? 'Error',
        content: { 'application/problem+json': { schema: Problem } },
      };
    }

    registry.registerPath({
      method: route.method.toLowerCase() as 'get',
      path: `/api/v1${route.path}`,
      operationId: route.operationId,
      summary: route.summary,
      description:
        [
          route.description,
          route.auth === 'tenant'
            ? `Permission \`${route.permission}\` (roles: ${rolesWith(route.permission).join(', ')}).`
            : undefined,
          route.auth === 'visitor' ? VISITOR_NOTE : undefined,
        ]
          .filter(Boolean)
          .join(' ') || undefined,
      tags: [route.tag],
      ...(route.auth === 'tenant' ? { 'x-permission': route.permission } : {}),
      security: route.auth === 'tenant' ? [{ bearer: [] }] : [],
      request: {
        headers: z.object({
          ...(route.auth === 'visitor'
            ? {}
            : { 'X-Tenant-ID': route.auth === 'tenant' ? tenantHeader : tenantHeader.optional() }),
          ...(route.method === 'POST' && route.auth !== 'public'
            ? {
                'Idempotency-Key': z
                  .string()
                  .max(255)
                  .optional()
                  .meta({ description: 'Replays the first response for 24 h' }),
              }
            : {}),
        }),
        ...(pathParams.length
          ? { params: z.object(Object.fromEntries(pathParams.map((p) => [p, z.string()]))) }
          : {}),
        ...(route.query ? { query: route.query } : {}),
        ...(hasBody
          ? {
              body: {
                required: bodyRequired(route),
                content: { 'application/json': { schema: route.body } },
              },
            }
          : {}),
      },
      responses,
    });
  }

  registerPreflights(registry, routes);
  registerWebhooks(registry);

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Switchboard API',
      version: '1.0.0',
      description: API_CONVENTIONS,
      // Decision (the contract is silent): the service is not open source; SPDX's LicenseRef- form
      // names its own terms.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Switchboard-Proprietary' },
    },
    servers: [{ url: '/' }],
  });
}

const VISITOR_NOTE =
  'No credential and no X-Tenant-ID: the path names what it acts on. Any origin may call it from a browser ' +
  '(Access-Control-Allow-Origin: *); one client address may make PUBLIC_RATE_LIMIT_PER_SECOND requests a second ' +
  '(429 rate_limited with Retry-After).';

/**
 * The CORS preflight (OPTIONS) of every visitor path, as the pipeline answers it: 204 with any origin
 * allowed, the path's methods and the headers the routes read.
 */
function registerPreflights(registry: OpenAPIRegistry, routes: AnyRoute[]): void {
  const paths = new Map<string, string[]>();
  for (const route of routes) {
    if (route.auth !== 'visitor') continue;
    paths.set(route.path, [...(paths.get(route.path) ?? []), route.method]);
  }
  for (const [path, methods] of paths) {
    const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    registry.registerPath({
      method: 'options',
      path: `/api/v1${path}`,
      operationId: `preflight${path
        .split('/')
        .filter(Boolean)
        .map((part) => part.replace(/[{}]/g, ''))
        .map(
          (part) =>
            part[0].toUpperCase() + part.slice(1).replace(/-(\w)/g, (_m, c: string) => c.toUpperCase()),
        )
        .join('')}`,
      summary: 'CORS preflight',
      description: `What a browser asks before a cross-origin ${methods.join(' or ')}: any origin is allowed.`,
      tags: [VISITOR_TAG],
      security: [],
      request: pathParams.length
        ? { params: z.object(Object.fromEntries(pathParams.map((p) => [p, z.string()]))) }
        : {},
      responses: {
        204: {
          description:
            'Access-Control-Allow-Origin: *, Access-Control-Allow-Methods (the path’s methods), ' +
            'Access-Control-Allow-Headers: Content-Type, Idempotency-Key, X-Request-Id; Max-Age one day',
        },
        // What the pipeline answers before it reaches the preflight, as for every operation.
        ...Object.fromEntries(
          [404, 422, 500, 503].map((status) => [
            status,
            { description: ERROR_TEXT[status], content: { 'application/problem+json': { schema: Problem } } },
          ]),
        ),
      },
    });
  }
}

/**
 * Whether a request must carry a body, as the pipeline decides it (server/http/dispatch.ts): a missing
 * body is validated as `{}`, so a route whose schema takes `{}` (every field optional) accepts a POST
 * without one. A route that reads its body raw (a signed webhook) always needs one.
 */
function bodyRequired(route: AnyRoute): boolean {
  if (route.auth === 'public' && route.rawBody) return true;
  return !(route.body as z.ZodType).safeParse({}).success;
}

const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');

const WEBHOOK_HEADERS = z.object({
  'webhook-id': z
    .string()
    .meta({ description: 'The event id (evt_…): the same on every attempt; deduplicate by it' }),
  'webhook-timestamp': z
    .string()
    .meta({ description: 'Unix seconds of this attempt; reject one more than 5 minutes from now' }),
  'webhook-signature': z.string().meta({
    description:
      'v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}"> keyed with the base64-decoded ' +
      'part of the endpoint secret after whsec_; during a rotation two signatures, space-separated',
  }),
  'X-Service-Signature': z.string().meta({ description: 'The same value as webhook-signature' }),
  'X-Service-Event-Type': z.string().meta({ description: 'The event type, as in the body' }),
  'X-Service-Delivery-Attempt': z.string().meta({ description: 'The attempt number, 1..6' }),
});

/**
 * The top-level `webhooks` map (docs/decisions.md "Integrator tools"): one entry per catalog type, keyed by the type, whose
 * request body is that type's envelope with `data.object` typed as the resource.
 */
function registerWebhooks(registry: OpenAPIRegistry): void {
  for (const { type, description } of EVENT_TYPES) {
    const name = `${pascal(type)}Event`;
    const schema = envelopeSchema(type);
    zodToOpenAPIRegistry.add(schema, { _internal: { refId: name }, description: `The ${type} envelope` });
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `${name[0].toLowerCase()}${name.slice(1)}`,
      summary: description,
      description:
        `Sent to every active endpoint subscribed to ${type} (or its family, or *) as a signed POST ` +
        '(Standard Webhooks). Answer 2xx within 10 s; anything else is retried after 1 s, 5 s, 25 s, 125 s ' +
        'and 625 s. Delivery is at-least-once: deduplicate by webhook-id.',
      tags: ['Webhook events'],
      // Not called with a credential: the receiver authenticates the request by its signature headers.
      security: [],
      request: {
        headers: WEBHOOK_HEADERS,
        body: {
          required: true,
          content: { 'application/json': { schema, example: exampleEnvelope(type) } },
        },
      },
      responses: {
        200: { description: 'Any 2xx accepts the delivery (the body is ignored)' },
        400: {
          description:
            'Any other answer (a 4xx for a bad signature or a stale timestamp, 5xx, 3xx, a timeout) fails the ' +
            'attempt, which is retried',
        },
      },
    });
  }
}
