-- Delivery filters (README "Webhook operations") and stats, backed by indexes: the event's type and object id are
-- copied onto its deliveries, the newest attempt's HTTP status onto its delivery, and the endpoint
-- onto each attempt. Existing rows are filled from what they already reference.

-- AlterTable
ALTER TABLE "deliveries" ADD COLUMN     "event_type" TEXT,
ADD COLUMN     "last_response_status" INTEGER,
ADD COLUMN     "object_id" TEXT,
ADD COLUMN     "traceparent" TEXT;

UPDATE "deliveries" d SET "event_type" = e."type", "object_id" = e."payload"->'data'->'object'->>'id'
FROM "events" e WHERE e."id" = d."event_id";

UPDATE "deliveries" d SET "last_response_status" = a."response_status"
FROM "delivery_attempts" a
WHERE a."delivery_id" = d."id" AND a."attempt_number" = d."attempt_count" AND a."response_status" IS NOT NULL;

ALTER TABLE "deliveries" ALTER COLUMN "event_type" SET NOT NULL;

-- AlterTable
ALTER TABLE "delivery_attempts" ADD COLUMN     "endpoint_id" TEXT;

UPDATE "delivery_attempts" a SET "endpoint_id" = d."endpoint_id" FROM "deliveries" d WHERE d."id" = a."delivery_id";

ALTER TABLE "delivery_attempts" ALTER COLUMN "endpoint_id" SET NOT NULL;

-- CreateIndex
CREATE INDEX "deliveries_tenant_id_id_idx" ON "deliveries"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "deliveries_tenant_id_event_type_id_idx" ON "deliveries"("tenant_id", "event_type", "id");

-- CreateIndex
CREATE INDEX "deliveries_tenant_id_object_id_idx" ON "deliveries"("tenant_id", "object_id");

-- CreateIndex
CREATE INDEX "deliveries_tenant_id_last_response_status_id_idx" ON "deliveries"("tenant_id", "last_response_status", "id");

-- CreateIndex
CREATE INDEX "delivery_attempts_tenant_id_endpoint_id_started_at_succeede_idx" ON "delivery_attempts"("tenant_id", "endpoint_id", "started_at", "succeeded", "latency_ms");

-- CreateIndex
CREATE INDEX "events_tenant_id_type_id_idx" ON "events"("tenant_id", "type", "id");

-- CreateTable
CREATE TABLE "delivery_stats_rollups" (
    "tenant_id" UUID NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "bucket" TEXT NOT NULL,
    "start" TIMESTAMPTZ(3) NOT NULL,
    "succeeded" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,
    "latency_p50_ms" INTEGER,
    "latency_p95_ms" INTEGER,

    CONSTRAINT "delivery_stats_rollups_pkey" PRIMARY KEY ("tenant_id","endpoint_id","bucket","start")
);
