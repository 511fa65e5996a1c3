-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_webhook_endpoints" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "url" TEXT NOT NULL,
    "event_types" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "slack" BOOLEAN NOT NULL,
    "locale" TEXT NOT NULL DEFAULT 'en',
    "secret" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL
);
INSERT INTO "new_webhook_endpoints" ("created_at", "created_by", "enabled", "event_types", "id", "secret", "slack", "url") SELECT "created_at", "created_by", "enabled", "event_types", "id", "secret", "slack", "url" FROM "webhook_endpoints";
DROP TABLE "webhook_endpoints";
ALTER TABLE "new_webhook_endpoints" RENAME TO "webhook_endpoints";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
