-- Revokes every refresh token of the person (password-resets.ts `completePasswordReset`): a new
-- password ends their sessions in every tenant, since the password is theirs.
-- @cross-tenant a person's sessions in every tenant
-- @param userId
update refresh_tokens set revoked_at = now() where user_id = $1::text and revoked_at is null
