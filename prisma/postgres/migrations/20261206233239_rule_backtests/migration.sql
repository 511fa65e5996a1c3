-- AlterTable
ALTER TABLE "rule_versions" ADD COLUMN     "backtest" TEXT;

-- CreateIndex
CREATE INDEX "tool_call_decisions_agent_id_tool_name_decided_at_idx" ON "tool_call_decisions"("agent_id", "tool_name", "decided_at");

-- CreateIndex
CREATE INDEX "tool_call_decisions_decided_at_idx" ON "tool_call_decisions"("decided_at");
