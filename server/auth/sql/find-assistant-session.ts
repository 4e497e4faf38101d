// Generated from find-assistant-session.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type FindAssistantSessionParams = [prefix: string];

export interface FindAssistantSessionRow {
  id: string;
  tenantId: string;
  conversationId: string;
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  conversationStatus: 'open' | 'pending_human' | 'resolved';
  resolvedAt: Date | null;
  contactName: string | null;
  contactPhone: string | null;
}

/**
 * An assistant session by its token's public prefix (server/auth/principal.ts), with what decides on
 * every request whether it still works (its conversation's status and last resolution) and who it acts
 * for (the conversation's contact).
 */
export const findAssistantSession = typedSql<FindAssistantSessionParams, FindAssistantSessionRow>({
  name: 'find-assistant-session',
  text: `select s.id, s.tenant_id as "tenantId", s.conversation_id as "conversationId", s.token_hash as "tokenHash",
  s.created_at as "createdAt", s.expires_at as "expiresAt", s.revoked_at as "revokedAt",
  c.status as "conversationStatus", c.resolved_at as "resolvedAt", c.contact_name as "contactName",
  c.contact_phone as "contactPhone"
from assistant_sessions s
join conversations c on c.id = s.conversation_id and c.tenant_id = s.tenant_id
where s.prefix = $1::text`,
  columns: [
    'id',
    'tenantId',
    'conversationId',
    'tokenHash',
    'createdAt',
    'expiresAt',
    'revokedAt',
    'conversationStatus',
    'resolvedAt',
    'contactName',
    'contactPhone',
  ],
});
