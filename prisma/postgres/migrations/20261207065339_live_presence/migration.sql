-- CreateTable
CREATE TABLE "call_presence" (
    "stream_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "user_name" TEXT NOT NULL,
    "opened_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "call_presence_pkey" PRIMARY KEY ("stream_id","user_id","run_id","tool_call_id")
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
CREATE FUNCTION queue_changes_call_presence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM queue_change('presence', OLD."run_id", OLD."tool_call_id", NULL, NULL, NULL);
    ELSE
        PERFORM queue_change('presence', NEW."run_id", NEW."tool_call_id", NULL, NULL, NULL);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER queue_changes_call_presence AFTER INSERT OR DELETE ON call_presence
FOR EACH ROW EXECUTE FUNCTION queue_changes_call_presence();
