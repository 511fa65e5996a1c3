-- CreateTable
CREATE TABLE "queue_changes" (
    "position" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "run_id" TEXT,
    "tool_call_id" TEXT,
    "agent_id" TEXT,
    "thread_id" TEXT,
    "resource_id" TEXT,
    "tx" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "queue_changes_pkey" PRIMARY KEY ("position")
);

-- CreateIndex
CREATE INDEX "queue_changes_at_idx" ON "queue_changes"("at");

-- CreateIndex
CREATE INDEX "queue_changes_tx_idx" ON "queue_changes"("tx");

-- The live queue's change feed (lib/live, docs/live-queue.md): what a reader of the queue sees
-- change, one row each, written by triggers in the transaction of the change, whichever process
-- made it (the console, or a team's own Mastra server writing the store's tables). Only the
-- triggers on the console's tables that name no store table are here: those on or naming the
-- store's (a call waiting, a run leaving, a call assigned, approved or rated) are
-- prisma/postgres/derived/queue_changes.sql, installed by lib/db/derived-tables.ts, as on SQLite.
-- Positions come from a sequence and may commit out of order, so each row carries its transaction
-- and each change notifies channel queue_changes with that transaction only: PostgreSQL delivers it
-- once per transaction (identical payloads are folded), at commit, and a listener reads exactly its rows.
CREATE FUNCTION queue_change(change_kind TEXT, run TEXT, call TEXT, agent TEXT, thread TEXT, resource TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "queue_changes" ("at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    VALUES (clock_timestamp() AT TIME ZONE 'UTC', change_kind, run, call, agent, thread, resource, txid_current());
    PERFORM pg_notify('queue_changes', txid_current()::text);
END
$$;

-- A decision was claimed (recorded) or moved on: applying, applied, failed, released.
CREATE FUNCTION queue_changes_decision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW."state" IS NOT DISTINCT FROM OLD."state" THEN
        RETURN NULL;
    END IF;
    PERFORM queue_change('decision.' || NEW."state", NEW."run_id", NEW."tool_call_id", NEW."agent_id", NEW."thread_id", NEW."resource_id");
    RETURN NULL;
END
$$;
CREATE TRIGGER queue_changes_decision AFTER INSERT OR UPDATE OF state ON tool_call_decisions
FOR EACH ROW EXECUTE FUNCTION queue_changes_decision();

-- A whole thread was assigned or unassigned.
CREATE FUNCTION queue_changes_thread_assignments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM queue_change('assigned', NULL, NULL, NULL, OLD."thread_id", NULL);
    ELSE
        PERFORM queue_change('assigned', NULL, NULL, NULL, NEW."thread_id", NULL);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER queue_changes_thread_assignments AFTER INSERT OR UPDATE OR DELETE ON thread_assignments
FOR EACH ROW EXECUTE FUNCTION queue_changes_thread_assignments();
