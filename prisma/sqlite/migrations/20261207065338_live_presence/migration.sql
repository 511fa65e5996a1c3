-- CreateTable
CREATE TABLE "call_presence" (
    "stream_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "user_name" TEXT NOT NULL,
    "opened_at" DATETIME NOT NULL,
    "expires_at" DATETIME NOT NULL,

    PRIMARY KEY ("stream_id", "user_id", "run_id", "tool_call_id")
);

-- CreateIndex
CREATE INDEX "call_presence_run_id_tool_call_id_idx" ON "call_presence"("run_id", "tool_call_id");

-- CreateIndex
CREATE INDEX "call_presence_user_id_expires_at_idx" ON "call_presence"("user_id", "expires_at");

-- CreateIndex
CREATE INDEX "call_presence_expires_at_idx" ON "call_presence"("expires_at");

-- A call opened or closed in a tab is a `presence` change of the live queue's feed (docs/live-queue.md):
-- each instance reads the call's viewers again and tells its streams. A row's expiry being pushed on
-- is no change. Console tables only, so these stay in the migration (lib/db/derived-tables.ts).
CREATE TRIGGER "queue_changes_call_presence_insert" AFTER INSERT ON "call_presence"
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    VALUES ((SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'presence', NEW."run_id", NEW."tool_call_id", NULL, NULL, NULL, 0);
END;

CREATE TRIGGER "queue_changes_call_presence_delete" AFTER DELETE ON "call_presence"
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    VALUES ((SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'presence', OLD."run_id", OLD."tool_call_id", NULL, NULL, NULL, 0);
END;
