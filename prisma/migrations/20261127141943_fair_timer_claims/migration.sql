-- DropIndex
DROP INDEX "timers_fired_at_due_at_idx";

-- CreateIndex
CREATE INDEX "timers_fired_at_due_at_tenant_id_idx" ON "timers"("fired_at", "due_at", "tenant_id");

-- CreateIndex
CREATE INDEX "timers_tenant_id_fired_at_due_at_idx" ON "timers"("tenant_id", "fired_at", "due_at");

-- CreateIndex
CREATE INDEX "timers_fired_at_locked_until_idx" ON "timers"("fired_at", "locked_until");
