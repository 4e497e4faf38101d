-- CreateEnum
CREATE TYPE "PaymentProvider" AS ENUM ('manual', 'stripe');

-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "checkout_url" TEXT,
ADD COLUMN     "refunded_amount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "stripe_payment_intent_id" TEXT;

-- `provider` was free text that callers set by hand; the service now collects money itself only through
-- Stripe Checkout, and every payment recorded before this migration was a hand-moved ledger entry, which
-- is what `manual` means. So every existing row becomes `manual` (its provider_ref is kept as it is); a
-- row that said "stripe" had no Checkout Session behind it and must not be refunded through Stripe.
ALTER TABLE "payments" ALTER COLUMN "provider" TYPE "PaymentProvider" USING 'manual'::"PaymentProvider",
ALTER COLUMN "provider" SET DEFAULT 'manual';

-- Refunds were whole until now: a refunded payment has refunded its whole amount.
UPDATE "payments" SET "refunded_amount" = "amount" WHERE "status" = 'refunded';

-- CreateTable
CREATE TABLE "payment_provider_connections" (
    "tenant_id" UUID NOT NULL,
    "provider" "PaymentProvider" NOT NULL,
    "account_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "secret_key_enc" TEXT NOT NULL,
    "secret_key_last4" TEXT NOT NULL,
    "webhook_secret_enc" TEXT NOT NULL,
    "webhook_secret_last4" TEXT NOT NULL,
    "connected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_provider_connections_pkey" PRIMARY KEY ("tenant_id","provider")
);

-- CreateTable
CREATE TABLE "stripe_events" (
    "tenant_id" UUID NOT NULL,
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "payment_id" TEXT,
    "payment_intent_id" TEXT,
    "amount_refunded" INTEGER,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stripe_events_pkey" PRIMARY KEY ("tenant_id","event_id")
);

-- CreateIndex
CREATE INDEX "stripe_events_tenant_id_payment_intent_id_idx" ON "stripe_events"("tenant_id", "payment_intent_id");

-- CreateIndex
CREATE INDEX "payments_tenant_id_provider_ref_idx" ON "payments"("tenant_id", "provider_ref");

-- CreateIndex
CREATE INDEX "payments_tenant_id_stripe_payment_intent_id_idx" ON "payments"("tenant_id", "stripe_payment_intent_id");
