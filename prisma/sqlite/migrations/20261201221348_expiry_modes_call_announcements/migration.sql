-- AlterTable
ALTER TABLE "tool_call_decisions" ADD COLUMN "expiry_mode" TEXT;

-- CreateTable
CREATE TABLE "call_announcements" (
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "waiting_since" DATETIME NOT NULL,
    "announced_at" DATETIME NOT NULL,

    PRIMARY KEY ("run_id", "tool_call_id", "type")
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_expiry_rules" (
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "after_minutes" INTEGER NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'decline',
    "warn_minutes" INTEGER,
    "updated_by" TEXT NOT NULL,
    "updated_at" DATETIME NOT NULL,

    PRIMARY KEY ("agent_id", "tool_name")
);
INSERT INTO "new_expiry_rules" ("after_minutes", "agent_id", "tool_name", "updated_at", "updated_by") SELECT "after_minutes", "agent_id", "tool_name", "updated_at", "updated_by" FROM "expiry_rules";
DROP TABLE "expiry_rules";
ALTER TABLE "new_expiry_rules" RENAME TO "expiry_rules";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "call_announcements_type_waiting_since_run_id_idx" ON "call_announcements"("type", "waiting_since", "run_id");

-- CreateIndex
CREATE INDEX "call_announcements_announced_at_idx" ON "call_announcements"("announced_at");
