-- An assistant session by its token's public prefix (server/auth/principal.ts), with what decides on
-- every request whether it still works (its conversation's status and last resolution) and who it acts
-- for (the conversation's contact).
-- @cross-tenant the token names its tenant: its session is found by the token's prefix
-- @param prefix
select s.id, s.tenant_id as "tenantId", s.conversation_id as "conversationId", s.token_hash as "tokenHash",
  s.created_at as "createdAt", s.expires_at as "expiresAt", s.revoked_at as "revokedAt",
  c.status as "conversationStatus", c.resolved_at as "resolvedAt", c.contact_name as "contactName",
  c.contact_phone as "contactPhone"
from assistant_sessions s
join conversations c on c.id = s.conversation_id and c.tenant_id = s.tenant_id
where s.prefix = $1::text
