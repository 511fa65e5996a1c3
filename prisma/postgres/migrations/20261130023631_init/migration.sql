-- CreateTable
CREATE TABLE "workflow_snapshots" (
    "workflow_name" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "resource_id" TEXT,
    "agent_id" TEXT,
    "thread_id" TEXT,
    "status" TEXT NOT NULL,
    "tool_calls" TEXT,
    "snapshot" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "workflow_snapshots_pkey" PRIMARY KEY ("workflow_name","run_id")
);

-- CreateIndex
CREATE INDEX "workflow_snapshots_run_id_idx" ON "workflow_snapshots"("run_id");

-- CreateIndex
CREATE INDEX "workflow_snapshots_workflow_name_status_created_at_idx" ON "workflow_snapshots"("workflow_name", "status", "created_at");

-- CreateIndex
CREATE INDEX "workflow_snapshots_workflow_name_resource_id_created_at_idx" ON "workflow_snapshots"("workflow_name", "resource_id", "created_at");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_agent_id_created_at_idx" ON "workflow_snapshots"("status", "agent_id", "created_at");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_resource_id_created_at_idx" ON "workflow_snapshots"("status", "resource_id", "created_at");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_thread_id_created_at_idx" ON "workflow_snapshots"("status", "thread_id", "created_at");
