-- One engine-neutral hand-over: "handed to Inngest" moves from the event (events.dispatched_at, set
-- by the outbox for the worker engine and by the Inngest relay otherwise) to each delivery
-- (deliveries.relayed_at, set only by the Inngest relay, reset by a recovery).

-- AlterTable
ALTER TABLE "deliveries" ADD COLUMN     "relayed_at" TIMESTAMPTZ(3);

-- Existing rows keep their meaning: a delivery of a dispatched event was handed over then (the worker
-- engine dispatched every event on commit); a delivery of an event still waiting for the relay (a
-- new one, a resend or a recovery the relay has not sent yet) stays unrelayed, so the relay sends it.
UPDATE "deliveries" d SET "relayed_at" = e."dispatched_at"
FROM "events" e
WHERE e."id" = d."event_id" AND e."dispatched_at" IS NOT NULL;

-- DropIndex
DROP INDEX "events_dispatched_at_created_at_idx";

-- AlterTable
ALTER TABLE "events" DROP COLUMN "dispatched_at";

-- CreateIndex
CREATE INDEX "deliveries_relayed_at_id_idx" ON "deliveries"("relayed_at", "id");
