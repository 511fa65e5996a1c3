-- CreateIndex
CREATE INDEX "tool_call_decisions_resource_id_tool_name_decided_at_idx" ON "tool_call_decisions"("resource_id", "tool_name", "decided_at");

-- CreateIndex
CREATE INDEX "tool_call_decisions_thread_id_decided_at_idx" ON "tool_call_decisions"("thread_id", "decided_at");
