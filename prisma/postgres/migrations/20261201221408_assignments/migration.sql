-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN     "assignee" TEXT;

-- CreateTable
CREATE TABLE "call_assignments" (
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "assignee_id" TEXT NOT NULL,
    "assigned_by" TEXT NOT NULL,
    "assigned_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "call_assignments_pkey" PRIMARY KEY ("run_id","tool_call_id")
);

-- CreateTable
CREATE TABLE "thread_assignments" (
    "thread_id" TEXT NOT NULL,
    "assignee_id" TEXT NOT NULL,
    "assigned_by" TEXT NOT NULL,
    "assigned_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "thread_assignments_pkey" PRIMARY KEY ("thread_id")
);

-- CreateTable
CREATE TABLE "agent_review_settings" (
    "agent_id" TEXT NOT NULL,
    "only_assignee_decides" BOOLEAN NOT NULL,
    "updated_by" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "agent_review_settings_pkey" PRIMARY KEY ("agent_id")
);

-- CreateIndex
CREATE INDEX "call_assignments_assignee_id_run_id_idx" ON "call_assignments"("assignee_id", "run_id");

-- CreateIndex
CREATE INDEX "thread_assignments_assignee_id_thread_id_idx" ON "thread_assignments"("assignee_id", "thread_id");
