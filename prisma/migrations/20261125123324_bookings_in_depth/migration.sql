-- CreateEnum
CREATE TYPE "ResourceKind" AS ENUM ('staff', 'room', 'equipment');

-- CreateEnum
CREATE TYPE "PaymentMode" AS ENUM ('none', 'deposit', 'full');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "BookingStatus" ADD VALUE 'expired';
ALTER TYPE "BookingStatus" ADD VALUE 'no_show';

-- AlterTable
ALTER TABLE "bookings" ADD COLUMN     "blocked_from" TIMESTAMPTZ(3),
ADD COLUMN     "blocked_until" TIMESTAMPTZ(3),
ADD COLUMN     "hold_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "resource_id" TEXT,
ADD COLUMN     "service_id" TEXT;

-- CreateTable
CREATE TABLE "resources" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "ResourceKind" NOT NULL,
    "time_zone" TEXT NOT NULL,
    "weekly_hours" JSONB NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "calendar_token_hash" TEXT,
    "calendar_token_enc" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "resources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "time_off" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "resource_id" TEXT NOT NULL,
    "start_at" TIMESTAMPTZ(3) NOT NULL,
    "end_at" TIMESTAMPTZ(3) NOT NULL,
    "reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "time_off_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "services" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "duration_minutes" INTEGER NOT NULL,
    "resource_ids" TEXT[],
    "buffer_before_minutes" INTEGER NOT NULL DEFAULT 0,
    "buffer_after_minutes" INTEGER NOT NULL DEFAULT 0,
    "min_notice_minutes" INTEGER NOT NULL DEFAULT 0,
    "booking_window_days" INTEGER NOT NULL DEFAULT 90,
    "slot_interval_minutes" INTEGER,
    "price_amount" INTEGER,
    "price_currency" CHAR(3),
    "payment" "PaymentMode" NOT NULL DEFAULT 'none',
    "deposit_amount" INTEGER,
    "reminders" JSONB NOT NULL DEFAULT '[]',
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "services_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "timers" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "key" TEXT NOT NULL DEFAULT '',
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "generation" INTEGER NOT NULL DEFAULT 1,
    "fired_at" TIMESTAMPTZ(3),
    "locked_until" TIMESTAMPTZ(3),
    "dispatched_generation" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "timers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "resources_calendar_token_hash_key" ON "resources"("calendar_token_hash");

-- CreateIndex
CREATE INDEX "resources_tenant_id_id_idx" ON "resources"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "time_off_tenant_id_resource_id_start_at_idx" ON "time_off"("tenant_id", "resource_id", "start_at");

-- CreateIndex
CREATE INDEX "services_tenant_id_id_idx" ON "services"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "timers_fired_at_due_at_idx" ON "timers"("fired_at", "due_at");

-- CreateIndex
CREATE INDEX "timers_tenant_id_subject_id_idx" ON "timers"("tenant_id", "subject_id");

-- CreateIndex
CREATE UNIQUE INDEX "timers_kind_subject_id_key_key" ON "timers"("kind", "subject_id", "key");

-- CreateIndex
CREATE INDEX "bookings_tenant_id_resource_id_blocked_from_idx" ON "bookings"("tenant_id", "resource_id", "blocked_from");

-- No double booking, refused by PostgreSQL itself: two pending or confirmed bookings of one resource
-- whose blocked intervals ([start - buffer_before, end + buffer_after), half-open) overlap cannot both
-- exist, whatever the requests that race to write them. Free-form bookings (no resource) block nothing.
CREATE EXTENSION IF NOT EXISTS btree_gist;

ALTER TABLE "bookings" ADD CONSTRAINT "bookings_blocked_interval_check" CHECK (
  "resource_id" IS NULL
  OR ("blocked_from" IS NOT NULL AND "blocked_until" IS NOT NULL AND "blocked_from" < "blocked_until")
);

ALTER TABLE "bookings" ADD CONSTRAINT "bookings_no_overlap" EXCLUDE USING gist (
  "tenant_id" WITH =,
  "resource_id" WITH =,
  tstzrange("blocked_from", "blocked_until", '[)') WITH &&
) WHERE ("status" IN ('pending', 'confirmed') AND "resource_id" IS NOT NULL);

-- The conversation timers move from a 30 s periodic job to the timers table: plan the pending ones
-- (with the default WHATSAPP_WINDOW_WARNING of 1 h and HANDOFF_SLA of 15 min; a timer re-plans itself
-- when it fires early for the configured value).
INSERT INTO "timers" ("id", "tenant_id", "kind", "subject_id", "key", "due_at", "updated_at")
SELECT 'tmr_' || upper(substr(md5(random()::text || "id"), 1, 26)), "tenant_id", 'conversation.window', "id", '',
  "window_expires_at" - interval '1 hour', now()
FROM "conversations"
WHERE "channel" = 'whatsapp' AND "window_expires_at" > now()
  AND ("window_warned_for" IS NULL OR "window_warned_for" <> "window_expires_at");

INSERT INTO "timers" ("id", "tenant_id", "kind", "subject_id", "key", "due_at", "updated_at")
SELECT 'tmr_' || upper(substr(md5(random()::text || "id"), 1, 26)), "tenant_id", 'conversation.handoff', "id", '',
  "handoff_at" + interval '15 minutes', now()
FROM "conversations"
WHERE "status" = 'pending_human' AND "handoff_at" IS NOT NULL AND "handoff_overdue_at" IS NULL;
