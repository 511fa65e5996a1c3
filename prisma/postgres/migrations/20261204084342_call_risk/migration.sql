-- AlterTable
ALTER TABLE "call_rule_matches" ADD COLUMN     "risk" TEXT;

-- CreateIndex
CREATE INDEX "call_rule_matches_risk_run_id_tool_call_id_idx" ON "call_rule_matches"("risk", "run_id", "tool_call_id");

-- Matches written before risks were copied: the risk of the rule version that matched.
UPDATE "call_rule_matches" SET "risk" = (
  SELECT ("v"."rule"::jsonb) ->> 'risk' FROM "rule_versions" AS "v"
  WHERE "v"."rule_id" = "call_rule_matches"."rule_id" AND "v"."version" = "call_rule_matches"."rule_version"
) WHERE "rule_id" IS NOT NULL;
