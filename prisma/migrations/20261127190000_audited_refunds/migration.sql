-- AlterTable
ALTER TABLE "audit_log" ADD COLUMN     "details" JSONB NOT NULL DEFAULT '{}',
ALTER COLUMN "actor_id" DROP NOT NULL;

-- AlterTable
ALTER TABLE "stripe_events" ADD COLUMN     "refunds" JSONB;

-- CreateTable
CREATE TABLE "stripe_refunds" (
    "tenant_id" UUID NOT NULL,
    "refund_id" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stripe_refunds_pkey" PRIMARY KEY ("tenant_id","refund_id")
);

-- CreateIndex
CREATE INDEX "stripe_refunds_tenant_id_payment_id_idx" ON "stripe_refunds"("tenant_id", "payment_id");
