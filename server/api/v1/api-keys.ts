import {
  ApiKey,
  ApiKeySecret,
  CreateApiKeyBody,
  RotateApiKeyBody,
  RotatedApiKey,
} from '@/server/api/schemas/auth';
import { ListQuery, listOf } from '@/server/api/schemas/common';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from '@/server/domain/api-keys';
import { json, noContent, tenantRoute } from '@/server/http/route';

const tag = 'API keys';

export const apiKeyRoutes = [
  tenantRoute({
    method: 'POST',
    path: '/api-keys',
    operationId: 'createApiKey',
    tag,
    role: 'admin',
    summary: 'Create an API key (the key is shown once)',
    body: CreateApiKeyBody,
    responses: { 201: { description: 'Created', schema: ApiKeySecret } },
    handler: async ({ db, tenantId, body }) =>
      json(
        201,
        await createApiKey(db, tenantId, {
          name: body.name,
          expiresAt: body.expires_at ? new Date(body.expires_at) : null,
        }),
      ),
  }),
  tenantRoute({
    method: 'GET',
    path: '/api-keys',
    operationId: 'listApiKeys',
    tag,
    role: 'admin',
    summary: 'List usable API keys (prefix, last use; never the secret)',
    query: ListQuery,
    responses: { 200: { description: 'One page', schema: listOf(ApiKey, 'ApiKeyList') } },
    handler: async ({ db, query }) => json(200, await listApiKeys(db, query)),
  }),
  tenantRoute({
    method: 'DELETE',
    path: '/api-keys/{id}',
    operationId: 'revokeApiKey',
    tag,
    role: 'admin',
    summary: 'Revoke an API key at once',
    responses: { 204: { description: 'Revoked' } },
    errors: [404],
    handler: async ({ db, params }) => {
      await revokeApiKey(db, params.id);
      return noContent();
    },
  }),
  tenantRoute({
    method: 'POST',
    path: '/api-keys/{id}/rotate',
    operationId: 'rotateApiKey',
    tag,
    role: 'admin',
    summary: 'Replace an API key with a new one',
    description:
      'The new key works at once. The old key stops at once, or after grace_seconds (at most 86400).',
    body: RotateApiKeyBody,
    responses: { 201: { description: 'The new key (shown once)', schema: RotatedApiKey } },
    errors: [404],
    handler: async ({ db, tenantId, params, body }) =>
      json(201, await rotateApiKey(db, tenantId, params.id, body.grace_seconds)),
  }),
];
