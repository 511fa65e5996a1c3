-- AlterTable
ALTER TABLE "rules" ADD COLUMN "expires_at" DATETIME;
ALTER TABLE "rules" ADD COLUMN "trusted_by" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_agent_review_settings" (
    "agent_id" TEXT NOT NULL PRIMARY KEY,
    "only_assignee_decides" BOOLEAN NOT NULL,
    "allow_trust" BOOLEAN NOT NULL DEFAULT true,
    "updated_by" TEXT NOT NULL,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_agent_review_settings" ("agent_id", "only_assignee_decides", "updated_at", "updated_by") SELECT "agent_id", "only_assignee_decides", "updated_at", "updated_by" FROM "agent_review_settings";
DROP TABLE "agent_review_settings";
ALTER TABLE "new_agent_review_settings" RENAME TO "agent_review_settings";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
