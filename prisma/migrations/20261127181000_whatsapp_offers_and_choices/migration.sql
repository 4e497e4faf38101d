-- AlterTable
ALTER TABLE "bookings" ADD COLUMN     "attendance_confirmed_at" TIMESTAMPTZ(3),
ADD COLUMN     "conversation_id" TEXT;

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "interactive" JSONB;

-- CreateTable
CREATE TABLE "offers" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "service_id" TEXT NOT NULL,
    "resource_id" TEXT,
    "booking_id" TEXT,
    "date" TEXT NOT NULL,
    "days" INTEGER NOT NULL,
    "time_zone" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "held_booking_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "offers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "choices" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "offer_id" TEXT,
    "booking_id" TEXT,
    "start_at" TIMESTAMPTZ(3),
    "end_at" TIMESTAMPTZ(3),
    "resource_id" TEXT,
    "chosen_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "choices_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "offers_tenant_id_conversation_id_id_idx" ON "offers"("tenant_id", "conversation_id", "id");

-- CreateIndex
CREATE INDEX "choices_tenant_id_offer_id_idx" ON "choices"("tenant_id", "offer_id");

-- CreateIndex
CREATE INDEX "bookings_tenant_id_conversation_id_idx" ON "bookings"("tenant_id", "conversation_id");
