-- The booking page and manage links: services may be public (with requires_confirmation and a cancel
-- notice), tenants list the origins that may frame their pages, and bookings gain their source and their
-- manage link's nonce and token hash (the hash of rows made before this migration is written by the
-- app after migrating: server/domain/bookings/manage-link.ts, backfillManageLinks).

-- CreateEnum
CREATE TYPE "BookingSource" AS ENUM ('api', 'dashboard', 'whatsapp', 'booking_page', 'assistant');

-- AlterTable
ALTER TABLE "bookings" ADD COLUMN     "manage_nonce" TEXT NOT NULL DEFAULT (replace((gen_random_uuid())::text, '-'::text, ''::text) || replace((gen_random_uuid())::text, '-'::text, ''::text)),
ADD COLUMN     "manage_token_hash" TEXT,
ADD COLUMN     "source" "BookingSource" NOT NULL DEFAULT 'api';

-- AlterTable
ALTER TABLE "services" ADD COLUMN     "cancel_notice_minutes" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "public" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "requires_confirmation" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "tenants" ADD COLUMN     "booking_frame_origins" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE UNIQUE INDEX "bookings_manage_token_hash_key" ON "bookings"("manage_token_hash");

-- CreateIndex
CREATE INDEX "bookings_tenant_id_customer_phone_idx" ON "bookings"("tenant_id", "customer_phone");
