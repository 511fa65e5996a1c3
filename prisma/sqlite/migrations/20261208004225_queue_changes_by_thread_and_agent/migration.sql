-- CreateIndex
CREATE INDEX "queue_changes_thread_id_position_idx" ON "queue_changes"("thread_id", "position");

-- CreateIndex
CREATE INDEX "queue_changes_agent_id_position_idx" ON "queue_changes"("agent_id", "position");
