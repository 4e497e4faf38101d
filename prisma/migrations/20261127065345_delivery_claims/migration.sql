-- The worker's in-flight mark moves out of `deliveries` into its own narrow table: a claim inserts
-- one row there instead of writing a new version of the delivery with an entry in each of its
-- indexes, and the caps count what is in flight from it (server/webhooks/engines/worker/sql/claim-deliveries.sql).

-- CreateTable
CREATE TABLE "delivery_claims" (
    "delivery_id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "locked_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "delivery_claims_pkey" PRIMARY KEY ("delivery_id")
);

-- AddForeignKey
ALTER TABLE "delivery_claims" ADD CONSTRAINT "delivery_claims_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Claims still running when the migration runs keep holding their deliveries.
INSERT INTO "delivery_claims" ("delivery_id", "tenant_id", "endpoint_id", "locked_until")
SELECT "id", "tenant_id", "endpoint_id", "locked_until" FROM "deliveries"
WHERE "status" = 'pending' AND "locked_until" >= now();

-- DropIndex
DROP INDEX "deliveries_status_locked_until_idx";

-- AlterTable
ALTER TABLE "deliveries" DROP COLUMN "locked_until";
