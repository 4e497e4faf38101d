import { z } from 'zod';
import { LIMITS } from '@/server/client-safe/limits';
import { Timestamp } from '@/server/lib/schemas';

export const LoginInput = z.object({
  email: z.string().trim().email().max(LIMITS.email),
  password: z.string().min(1).max(LIMITS.passwordMax),
});

export const RefreshInput = z.object({ refresh_token: z.string().min(1).max(512) });

export const Session = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().meta({ example: 1800 }),
  refresh_token: z.string(),
  refresh_token_expires_at: Timestamp,
  tenant_id: z.string().uuid(),
  user: z.object({ id: z.string(), email: z.string(), name: z.string(), role: z.enum(['admin', 'agent']) }),
});

export type LoginInput = z.output<typeof LoginInput>;
export type RefreshInput = z.output<typeof RefreshInput>;
