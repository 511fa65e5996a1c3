-- CreateTable
CREATE TABLE "waiting_call_risks" (
    "workflow_name" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "risk" TEXT NOT NULL,
    "risk_rank" INTEGER NOT NULL,
    "thread_key" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL,
    "tool_call_count" INTEGER NOT NULL,

    PRIMARY KEY ("workflow_name", "run_id", "tool_call_id")
);

-- CreateIndex
CREATE INDEX "waiting_call_risks_risk_thread_key_updated_at_workflow_name_run_id_tool_call_count_agent_id_created_at_idx" ON "waiting_call_risks"("risk", "thread_key", "updated_at", "workflow_name", "run_id", "tool_call_count", "agent_id", "created_at");

-- CreateIndex
CREATE INDEX "waiting_call_risks_thread_key_risk_rank_agent_id_created_at_idx" ON "waiting_call_risks"("thread_key", "risk_rank", "agent_id", "created_at");

-- CreateIndex
CREATE INDEX "waiting_call_risks_run_id_idx" ON "waiting_call_risks"("run_id");

-- Kept by triggers that lib/db/waiting-call-risks.ts installs (and refills the table) on every deploy,
-- after the store's migrations: they span the store's workflow_snapshots, which a store migration
-- may rebuild on SQLite.
