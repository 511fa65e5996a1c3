/*
  Warnings:

  - A unique constraint covering the columns `[tool_call_id]` on the table `tool_effects` will be added. If there are existing duplicate values, this will fail.

*/
-- A tool call has one effect: keep the first where a repeated approval recorded two (demo data).
DELETE FROM "tool_effects" WHERE "id" NOT IN (SELECT MIN("id") FROM "tool_effects" GROUP BY "tool_call_id");

-- DropIndex
DROP INDEX "tool_effects_tool_call_id_idx";

-- AlterTable
ALTER TABLE "tool_call_decisions" ADD COLUMN "tool_ran_at" DATETIME;

-- CreateIndex
CREATE UNIQUE INDEX "tool_effects_tool_call_id_key" ON "tool_effects"("tool_call_id");
