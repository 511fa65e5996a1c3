-- CreateTable
CREATE TABLE "suggestions" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "thread_id" TEXT,
    "resource_id" TEXT,
    "tool_name" TEXT NOT NULL,
    "args" TEXT NOT NULL,
    "suggested_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "outcome" TEXT,
    "used_run_id" TEXT,
    "used_tool_call_id" TEXT,

    CONSTRAINT "suggestions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "suggestions_agent_id_tool_name_used_at_idx" ON "suggestions"("agent_id", "tool_name", "used_at");

-- CreateIndex
CREATE INDEX "suggestions_used_run_id_used_tool_call_id_idx" ON "suggestions"("used_run_id", "used_tool_call_id");

-- CreateIndex
CREATE UNIQUE INDEX "suggestions_run_id_tool_call_id_key" ON "suggestions"("run_id", "tool_call_id");
