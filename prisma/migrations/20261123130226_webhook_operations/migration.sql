-- AlterTable
ALTER TABLE "deliveries" ADD COLUMN     "attempt_base" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "disabled_at" TIMESTAMPTZ(3),
ADD COLUMN     "disabled_reason" TEXT,
ADD COLUMN     "failure_streak" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "failure_streak_since" TIMESTAMPTZ(3),
ADD COLUMN     "rate_limit_per_second" INTEGER,
ADD COLUMN     "throttle_grants" TIMESTAMPTZ(3)[];

-- CreateIndex
CREATE INDEX "events_created_at_idx" ON "events"("created_at");
