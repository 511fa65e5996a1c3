-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN "via" TEXT;

-- AlterTable
ALTER TABLE "tool_call_decisions" ADD COLUMN "via" TEXT;

-- CreateTable
CREATE TABLE "slack_links" (
    "team_id" TEXT NOT NULL,
    "slack_user_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "linked_at" DATETIME NOT NULL,

    PRIMARY KEY ("team_id", "slack_user_id")
);

-- CreateTable
CREATE TABLE "slack_link_codes" (
    "code_hash" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "created_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "slack_links_user_id_key" ON "slack_links"("user_id");

-- CreateIndex
CREATE INDEX "slack_link_codes_user_id_idx" ON "slack_link_codes"("user_id");

-- CreateIndex
CREATE INDEX "slack_link_codes_expires_at_idx" ON "slack_link_codes"("expires_at");
