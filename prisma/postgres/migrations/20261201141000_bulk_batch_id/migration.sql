-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN     "batch_id" TEXT;

-- AlterTable
ALTER TABLE "tool_call_decisions" ADD COLUMN     "batch_id" TEXT;

-- CreateIndex
CREATE INDEX "audit_events_batch_id_idx" ON "audit_events"("batch_id");
