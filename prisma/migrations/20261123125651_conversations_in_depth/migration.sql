-- AlterTable
ALTER TABLE "conversations" ADD COLUMN     "handoff_at" TIMESTAMPTZ(3),
ADD COLUMN     "handoff_overdue_at" TIMESTAMPTZ(3),
ADD COLUMN     "window_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "window_warned_for" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "media" JSONB,
ADD COLUMN     "next_send_at" TIMESTAMPTZ(3),
ADD COLUMN     "send_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "template" JSONB,
ADD COLUMN     "type" TEXT NOT NULL DEFAULT 'text';

-- CreateIndex
CREATE INDEX "conversations_window_expires_at_idx" ON "conversations"("window_expires_at");

-- CreateIndex
CREATE INDEX "conversations_handoff_at_idx" ON "conversations"("handoff_at");

-- CreateIndex
CREATE INDEX "messages_next_send_at_idx" ON "messages"("next_send_at");

-- Backfill: an existing WhatsApp conversation's window runs from its last inbound message, and a
-- queued hand-off counts from its last change.
UPDATE "conversations" c SET "window_expires_at" = m.last_inbound + interval '24 hours'
FROM (
  SELECT "conversation_id", max("created_at") AS last_inbound
  FROM "messages" WHERE "direction" = 'inbound' GROUP BY "conversation_id"
) m
WHERE m."conversation_id" = c."id" AND c."channel" = 'whatsapp';
UPDATE "conversations" SET "handoff_at" = "updated_at" WHERE "status" = 'pending_human';
