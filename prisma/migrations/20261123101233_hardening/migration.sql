-- AlterTable
ALTER TABLE "idempotency_keys" ADD COLUMN     "credential" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "web_sessions" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "web_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "web_sessions_user_id_idx" ON "web_sessions"("user_id");

-- AddForeignKey
ALTER TABLE "web_sessions" ADD CONSTRAINT "web_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Records written before this release kept responses in plaintext; drop the ones that carried a
-- one-time secret (API keys, webhook secrets). The rest replay as before until they expire.
DELETE FROM "idempotency_keys" WHERE "response_body" LIKE '%sk_live_%' OR "response_body" LIKE '%whsec_%';
