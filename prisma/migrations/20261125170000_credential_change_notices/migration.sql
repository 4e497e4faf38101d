-- Credential change notices: each instance caches the API keys and memberships it has looked up
-- (server/auth/credential-cache.ts) and forgets them all when a NOTIFY on switchboard_credentials
-- arrives. These statement-level triggers send it whenever a change could refuse a credential that
-- was accepted before: a key revoked, expired, re-hashed or deleted; a membership changed or removed;
-- a user's tokens_valid_after moved (a password reset, a reused refresh token) or the user deleted.
-- pg_notify is delivered on commit, once per transaction, and never for a rolled-back one.
create function notify_credentials_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('switchboard_credentials', '');
  return null;
end
$$;

create trigger api_keys_changed
  after update of revoked_at, expires_at, secret_hash, tenant_id, prefix or delete or truncate on api_keys
  for each statement execute function notify_credentials_changed();

create trigger memberships_changed
  after update or delete or truncate on memberships
  for each statement execute function notify_credentials_changed();

create trigger users_credentials_changed
  after update of tokens_valid_after or delete or truncate on users
  for each statement execute function notify_credentials_changed();
