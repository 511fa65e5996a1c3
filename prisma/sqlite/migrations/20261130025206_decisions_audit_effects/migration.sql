-- CreateTable
CREATE TABLE "tool_call_decisions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "reviewer" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "thread_id" TEXT,
    "resource_id" TEXT,
    "tool_name" TEXT,
    "reason" TEXT,
    "resume_data" TEXT,
    "answer" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lease_until" DATETIME NOT NULL,
    "decided_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "at" DATETIME NOT NULL,
    "reviewer" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "code" TEXT,
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "agent_id" TEXT,
    "thread_id" TEXT,
    "resource_id" TEXT,
    "tool_name" TEXT,
    "args" TEXT,
    "resume_data" TEXT,
    "reason" TEXT,
    "answer" TEXT,
    "message" TEXT,
    "decision_id" TEXT
);

-- CreateTable
CREATE TABLE "tool_effects" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "at" DATETIME NOT NULL,
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "thread_id" TEXT,
    "resource_id" TEXT,
    "input" TEXT NOT NULL,
    "output" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "tool_call_decisions_state_lease_until_idx" ON "tool_call_decisions"("state", "lease_until");

-- CreateIndex
CREATE UNIQUE INDEX "tool_call_decisions_run_id_tool_call_id_key" ON "tool_call_decisions"("run_id", "tool_call_id");

-- CreateIndex
CREATE INDEX "audit_events_at_idx" ON "audit_events"("at");

-- CreateIndex
CREATE INDEX "audit_events_reviewer_at_idx" ON "audit_events"("reviewer", "at");

-- CreateIndex
CREATE INDEX "audit_events_resource_id_at_idx" ON "audit_events"("resource_id", "at");

-- CreateIndex
CREATE INDEX "audit_events_agent_id_at_idx" ON "audit_events"("agent_id", "at");

-- CreateIndex
CREATE INDEX "audit_events_outcome_at_idx" ON "audit_events"("outcome", "at");

-- CreateIndex
CREATE INDEX "audit_events_run_id_idx" ON "audit_events"("run_id");

-- CreateIndex
CREATE INDEX "tool_effects_tool_call_id_idx" ON "tool_effects"("tool_call_id");

-- CreateIndex
CREATE INDEX "tool_effects_resource_id_at_idx" ON "tool_effects"("resource_id", "at");
