-- DropIndex
DROP INDEX "workflow_snapshots_status_created_at_run_id_agent_id_workfl_idx";

-- DropIndex
DROP INDEX "workflow_snapshots_status_resource_id_created_at_run_id_age_idx";

-- DropIndex
DROP INDEX "workflow_snapshots_status_thread_id_updated_at_run_id_agent_idx";

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_created_at_run_id_agent_id_workfl_idx" ON "workflow_snapshots"("status", "created_at", "run_id", "agent_id", "workflow_name", "thread_id", "updated_at", "tool_call_count");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_resource_id_created_at_run_id_age_idx" ON "workflow_snapshots"("status", "resource_id", "created_at", "run_id", "agent_id", "workflow_name", "thread_id", "updated_at", "tool_call_count");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_thread_id_created_at_run_id_agent_idx" ON "workflow_snapshots"("status", "thread_id", "created_at", "run_id", "agent_id", "workflow_name", "updated_at", "tool_call_count");
