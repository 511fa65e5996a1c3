-- CreateTable
CREATE TABLE "notification_preferences" (
    "user_id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "updated_at" DATETIME NOT NULL,
    "digest_sent_at" DATETIME,
    "digest_lease_until" DATETIME
);

-- CreateTable
CREATE TABLE "email_notifications" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "next_attempt_at" DATETIME NOT NULL,
    "lease_until" DATETIME,
    "last_error" TEXT,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "email_notifications_state_kind_next_attempt_at_idx" ON "email_notifications"("state", "kind", "next_attempt_at");

-- CreateIndex
CREATE INDEX "email_notifications_event_id_idx" ON "email_notifications"("event_id");

-- CreateIndex
CREATE UNIQUE INDEX "email_notifications_user_id_event_id_key" ON "email_notifications"("user_id", "event_id");
