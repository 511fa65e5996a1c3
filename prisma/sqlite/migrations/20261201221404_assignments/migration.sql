-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN "assignee" TEXT;

-- CreateTable
CREATE TABLE "call_assignments" (
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "assignee_id" TEXT NOT NULL,
    "assigned_by" TEXT NOT NULL,
    "assigned_at" DATETIME NOT NULL,

    PRIMARY KEY ("run_id", "tool_call_id")
);

-- CreateTable
CREATE TABLE "thread_assignments" (
    "thread_id" TEXT NOT NULL PRIMARY KEY,
    "assignee_id" TEXT NOT NULL,
    "assigned_by" TEXT NOT NULL,
    "assigned_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "agent_review_settings" (
    "agent_id" TEXT NOT NULL PRIMARY KEY,
    "only_assignee_decides" BOOLEAN NOT NULL,
    "updated_by" TEXT NOT NULL,
    "updated_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "call_assignments_assignee_id_run_id_idx" ON "call_assignments"("assignee_id", "run_id");

-- CreateIndex
CREATE INDEX "thread_assignments_assignee_id_thread_id_idx" ON "thread_assignments"("assignee_id", "thread_id");
