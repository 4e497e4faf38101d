// API keys (docs/integrators.md, "Credentials"): inputs the operations accept and the resources they answer.
import { z } from 'zod';
import { LIMITS } from '@/server/client-safe/limits';
import { ALL_PERMISSIONS } from '@/server/client-safe/permissions';
import { Timestamp } from '@/server/lib/schemas';

export const PermissionName = z.enum(ALL_PERMISSIONS);

/** What a key holds, as its records show it (a full key: every permission of the admin role). */
const KeyPermissions = z.array(PermissionName).meta({
  description:
    'The permissions this key holds (the names of each operation’s x-permission). A key created without ' +
    '`permissions` holds every permission of the admin role, and any the role gains later.',
});

export const CreateApiKeyInput = z
  .object({
    name: z.string().trim().min(1).max(LIMITS.apiKeyName),
    expires_at: z.iso
      .datetime({ offset: true, abort: true })
      .optional()
      .nullable()
      .refine((v) => !v || new Date(v).getTime() > Date.now(), 'Must be in the future'),
    permissions: z
      .array(PermissionName)
      .min(1)
      .max(ALL_PERMISSIONS.length * 2)
      .optional()
      .meta({
        description:
          'A restricted key: only these permissions (each operation’s x-permission names the one it needs; ' +
          'any other request answers 403 forbidden naming it). Omitted: a full key, with every permission ' +
          'of the admin role. A credential may create only keys whose permissions it holds itself (403).',
        example: ['assistant_sessions.create', 'conversations.read', 'services.read'],
      }),
  })
  .meta({
    description:
      'A tenant has at most MAX_API_KEYS_PER_TENANT keys that still authenticate (default 50; rotated keys ' +
      'count during their grace period): one more answers 409 api_key_limit_reached. Rotating a key is ' +
      'never refused. Requests are limited per key (API_RATE_LIMIT_PER_SECOND) and, all keys and users ' +
      'of the tenant together, per tenant (API_RATE_LIMIT_PER_TENANT_PER_SECOND): 429 rate_limited.',
  });
export type CreateApiKeyInput = z.output<typeof CreateApiKeyInput>;

export const RotateApiKeyInput = z.object({
  grace_seconds: z.number().int().min(0).max(86_400).default(0),
});

export const ApiKey = z.object({
  id: z.string().meta({ example: 'key_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  name: z.string(),
  prefix: z.string(),
  created_at: Timestamp,
  expires_at: Timestamp.nullable(),
  last_used_at: Timestamp.nullable(),
  revokes_at: Timestamp.nullable().meta({ description: 'When a rotated key stops working (grace period)' }),
  permissions: KeyPermissions,
});
export type ApiKeyResource = z.output<typeof ApiKey>;

export const ApiKeyWithSecret = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  key: z
    .string()
    .meta({ description: 'The full key (sk_live_<prefix>_<secret>); shown only in this response' }),
  created_at: Timestamp,
  expires_at: Timestamp.nullable(),
  permissions: KeyPermissions,
});
export type ApiKeyWithSecret = z.output<typeof ApiKeyWithSecret>;

export const RotatedApiKey = ApiKeyWithSecret.extend({
  replaced_key: z.object({ id: z.string(), revokes_at: Timestamp }),
});

export type RotateApiKeyInput = z.output<typeof RotateApiKeyInput>;
