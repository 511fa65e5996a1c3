-- DropIndex
DROP INDEX "workflow_snapshots_status_thread_id_created_at_run_id_agent_id_idx";

-- DropIndex
DROP INDEX "workflow_snapshots_status_resource_id_created_at_run_id_agent_id_idx";

-- DropIndex
DROP INDEX "workflow_snapshots_status_agent_id_created_at_run_id_idx";

-- DropIndex
DROP INDEX "workflow_snapshots_status_created_at_run_id_agent_id_idx";

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_created_at_run_id_agent_id_workflow_name_idx" ON "workflow_snapshots"("status", "created_at", "run_id", "agent_id", "workflow_name");

-- CreateIndex
CREATE INDEX "workflow_snapshots_agent_id_status_created_at_run_id_workflow_name_idx" ON "workflow_snapshots"("agent_id", "status", "created_at", "run_id", "workflow_name");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_resource_id_created_at_run_id_agent_id_workflow_name_idx" ON "workflow_snapshots"("status", "resource_id", "created_at", "run_id", "agent_id", "workflow_name");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_thread_id_created_at_run_id_agent_id_workflow_name_idx" ON "workflow_snapshots"("status", "thread_id", "created_at", "run_id", "agent_id", "workflow_name");
