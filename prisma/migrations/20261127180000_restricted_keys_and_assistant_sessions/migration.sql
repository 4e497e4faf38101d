-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "permissions" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "conversations" ADD COLUMN     "resolved_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "assistant_sessions" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "assistant_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "assistant_sessions_prefix_key" ON "assistant_sessions"("prefix");

-- CreateIndex
CREATE INDEX "assistant_sessions_tenant_id_conversation_id_expires_at_idx" ON "assistant_sessions"("tenant_id", "conversation_id", "expires_at");

-- CreateIndex
CREATE INDEX "assistant_sessions_expires_at_idx" ON "assistant_sessions"("expires_at");

-- A key's permissions are part of what the credential cache keeps (server/auth/credential-cache.ts):
-- a change to them, like a revocation, tells every instance to forget what it cached.
DROP TRIGGER "api_keys_changed" ON "api_keys";
CREATE TRIGGER "api_keys_changed"
  AFTER UPDATE OF revoked_at, expires_at, secret_hash, tenant_id, prefix, permissions OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credentials_changed();
