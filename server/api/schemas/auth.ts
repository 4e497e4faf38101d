import { z } from 'zod';
import { Timestamp } from './common';

export const LoginBody = z
  .object({
    email: z.string().trim().email().max(320),
    password: z.string().min(1).max(1024),
  })
  .meta({ id: 'LoginRequest' });

export const RefreshBody = z
  .object({ refresh_token: z.string().min(1).max(512) })
  .meta({ id: 'RefreshRequest' });

export const Session = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().meta({ example: 1800 }),
    refresh_token: z.string(),
    refresh_token_expires_at: Timestamp,
    tenant_id: z.string().uuid(),
    user: z.object({ id: z.string(), email: z.string(), name: z.string(), role: z.enum(['admin', 'agent']) }),
  })
  .meta({ id: 'Session' });

export const CreateApiKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    expires_at: z.iso
      .datetime({ offset: true, abort: true })
      .optional()
      .nullable()
      .refine((v) => !v || new Date(v).getTime() > Date.now(), 'Must be in the future'),
  })
  .meta({ id: 'CreateApiKeyRequest' });

export const RotateApiKeyBody = z
  .object({ grace_seconds: z.number().int().min(0).max(86_400).default(0) })
  .meta({ id: 'RotateApiKeyRequest' });

export const ApiKey = z
  .object({
    id: z.string().meta({ example: 'key_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
    name: z.string(),
    prefix: z.string(),
    created_at: Timestamp,
    expires_at: Timestamp.nullable(),
    last_used_at: Timestamp.nullable(),
    revokes_at: Timestamp.nullable().meta({ description: 'When a rotated key stops working (grace period)' }),
  })
  .meta({ id: 'ApiKey' });

export const ApiKeySecret = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    key: z
      .string()
      .meta({ description: 'The full key (sk_live_<prefix>_<secret>); shown only in this response' }),
    created_at: Timestamp,
    expires_at: Timestamp.nullable(),
  })
  .meta({ id: 'ApiKeyWithSecret' });

export const RotatedApiKey = ApiKeySecret.extend({
  replaced_key: z.object({ id: z.string(), revokes_at: Timestamp }),
}).meta({ id: 'RotatedApiKey' });
