-- AlterTable
ALTER TABLE "expiry_rules" ADD COLUMN     "mode" TEXT NOT NULL DEFAULT 'decline',
ADD COLUMN     "warn_minutes" INTEGER;

-- AlterTable
ALTER TABLE "tool_call_decisions" ADD COLUMN     "expiry_mode" TEXT;

-- CreateTable
CREATE TABLE "call_announcements" (
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "waiting_since" TIMESTAMP(3) NOT NULL,
    "announced_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "call_announcements_pkey" PRIMARY KEY ("run_id","tool_call_id","type")
);

-- CreateIndex
CREATE INDEX "call_announcements_type_waiting_since_run_id_idx" ON "call_announcements"("type", "waiting_since", "run_id");

-- CreateIndex
CREATE INDEX "call_announcements_announced_at_idx" ON "call_announcements"("announced_at");
