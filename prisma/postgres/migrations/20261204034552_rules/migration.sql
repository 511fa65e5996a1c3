-- AlterTable
ALTER TABLE "tool_call_decisions" ADD COLUMN     "rule_id" TEXT,
ADD COLUMN     "rule_version" INTEGER;

-- CreateTable
CREATE TABLE "rules" (
    "id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "agent_id" TEXT,
    "tool_name" TEXT,
    "resource" TEXT,
    "resource_match" TEXT NOT NULL DEFAULT 'exact',
    "call_kind" TEXT,
    "conditions" TEXT NOT NULL,
    "effect" TEXT NOT NULL,
    "reason" TEXT,
    "approvals" INTEGER,
    "risk" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "updated_by" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rule_versions" (
    "rule_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "changed_by" TEXT NOT NULL,
    "changed_at" TIMESTAMP(3) NOT NULL,
    "change" TEXT NOT NULL,
    "rule" TEXT NOT NULL,

    CONSTRAINT "rule_versions_pkey" PRIMARY KEY ("rule_id","version")
);

-- CreateTable
CREATE TABLE "call_rule_matches" (
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "rule_id" TEXT,
    "rule_version" INTEGER,
    "effect" TEXT,
    "matched_at" TIMESTAMP(3) NOT NULL,
    "settled_at" TIMESTAMP(3),

    CONSTRAINT "call_rule_matches_pkey" PRIMARY KEY ("run_id","tool_call_id")
);

-- CreateIndex
CREATE INDEX "rules_position_idx" ON "rules"("position");

-- CreateIndex
CREATE INDEX "call_rule_matches_rule_id_idx" ON "call_rule_matches"("rule_id");

-- CreateIndex
CREATE INDEX "call_rule_matches_settled_at_matched_at_idx" ON "call_rule_matches"("settled_at", "matched_at");
