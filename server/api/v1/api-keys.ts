import { listOf } from '@/server/api/schemas/common';
import { createApiKey } from '@/server/domain/api-keys/create-api-key';
import { listApiKeys } from '@/server/domain/api-keys/list-api-keys';
import { revokeApiKey } from '@/server/domain/api-keys/revoke-api-key';
import { rotateApiKey } from '@/server/domain/api-keys/rotate-api-key';
import {
  ApiKey,
  ApiKeyWithSecret,
  CreateApiKeyInput,
  RotateApiKeyInput,
  RotatedApiKey,
} from '@/server/domain/api-keys/schemas';
import { json, noContent, tenantRoute } from '@/server/http/route';
import { ListQuery } from '@/server/lib/schemas';

const tag = 'API keys';

export const apiKeyRoutes = [
  tenantRoute({
    method: 'POST',
    path: '/api-keys',
    operationId: 'createApiKey',
    secretResponse: true,
    tag,
    permission: 'api_keys.write',
    summary: 'Create an API key (the key is shown once)',
    body: CreateApiKeyInput,
    responses: { 201: { description: 'Created', schema: ApiKeyWithSecret } },
    handler: async ({ ctx, body }) => json(201, await createApiKey(ctx, body)),
  }),
  tenantRoute({
    method: 'GET',
    path: '/api-keys',
    operationId: 'listApiKeys',
    tag,
    permission: 'api_keys.read',
    summary: 'List usable API keys (prefix, last use; never the secret)',
    query: ListQuery,
    responses: { 200: { description: 'One page', schema: listOf(ApiKey, 'ApiKeyList') } },
    handler: async ({ ctx, query }) => json(200, await listApiKeys(ctx, query)),
  }),
  tenantRoute({
    method: 'DELETE',
    path: '/api-keys/{id}',
    operationId: 'revokeApiKey',
    tag,
    permission: 'api_keys.write',
    summary: 'Revoke an API key at once',
    responses: { 204: { description: 'Revoked' } },
    errors: [404],
    handler: async ({ ctx, params }) => {
      await revokeApiKey(ctx, { id: params.id });
      return noContent();
    },
  }),
  tenantRoute({
    method: 'POST',
    path: '/api-keys/{id}/rotate',
    operationId: 'rotateApiKey',
    secretResponse: true,
    tag,
    permission: 'api_keys.write',
    summary: 'Replace an API key with a new one',
    description:
      'The new key works at once. The old key stops at once, or after grace_seconds (at most 86400).',
    body: RotateApiKeyInput,
    responses: { 201: { description: 'The new key (shown once)', schema: RotatedApiKey } },
    errors: [404],
    handler: async ({ ctx, params, body }) => json(201, await rotateApiKey(ctx, { id: params.id, ...body })),
  }),
];
