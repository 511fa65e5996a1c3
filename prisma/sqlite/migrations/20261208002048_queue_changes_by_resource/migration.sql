-- CreateIndex
CREATE INDEX "queue_changes_resource_id_position_idx" ON "queue_changes"("resource_id", "position");

-- CreateIndex
CREATE INDEX "queue_changes_run_id_position_idx" ON "queue_changes"("run_id", "position");
