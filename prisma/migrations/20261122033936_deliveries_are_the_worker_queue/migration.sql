-- AlterTable
ALTER TABLE "deliveries" ADD COLUMN     "locked_until" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "deliveries_status_next_attempt_at_idx" ON "deliveries"("status", "next_attempt_at");

-- The worker engine no longer uses graphile-worker: pending deliveries carry their own schedule
-- (next_attempt_at), so the job tables and the heartbeat table of earlier versions are dropped.
DROP SCHEMA IF EXISTS "graphile_worker" CASCADE;
DROP SCHEMA IF EXISTS "switchboard_queue" CASCADE;
