-- Fair claims (server/webhooks/engines/worker/sql/claim-deliveries.sql): each endpoint's due deliveries
-- in order (also the loose index scan over endpoints with pending deliveries), and what is in flight.

-- DropIndex
DROP INDEX "deliveries_status_next_attempt_at_idx";

-- CreateIndex
CREATE INDEX "deliveries_status_endpoint_id_next_attempt_at_idx" ON "deliveries"("status", "endpoint_id", "next_attempt_at");

-- CreateIndex
CREATE INDEX "deliveries_status_locked_until_idx" ON "deliveries"("status", "locked_until");
