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

-- The live queue's change feed (lib/live, the README's "Live queue"): what a reader of the queue sees
-- change, one row each, written by these triggers in the transaction of the change, whichever process
-- made it (the console, or a team's own Mastra server writing the store's tables). Positions come
-- from a sequence and may commit out of order, so each row carries its transaction and each change
-- notifies channel queue_changes with that transaction only: PostgreSQL delivers it once per
-- transaction (identical payloads are folded), at commit, and a listener reads exactly its rows.
CREATE FUNCTION queue_change(change_kind TEXT, run TEXT, call TEXT, agent TEXT, thread TEXT, resource TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "queue_changes" ("at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    VALUES (clock_timestamp() AT TIME ZONE 'UTC', change_kind, run, call, agent, thread, resource, txid_current());
    PERFORM pg_notify('queue_changes', txid_current()::text);
END
$$;

-- A change to one call: its agent, thread and resource from its run's snapshot (null once it is gone).
CREATE FUNCTION queue_change_of_call(change_kind TEXT, run TEXT, call TEXT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    agent TEXT;
    thread TEXT;
    resource TEXT;
BEGIN
    SELECT "agent_id", "thread_id", "resource_id" INTO agent, thread, resource
    FROM "workflow_snapshots" WHERE "run_id" = run AND "agent_id" IS NOT NULL LIMIT 1;
    PERFORM queue_change(change_kind, run, call, agent, thread, resource);
END
$$;

-- A call started waiting (the store's waiting_tool_calls records each new call once).
CREATE FUNCTION queue_changes_waiting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM queue_change('waiting', NEW."run_id", NEW."tool_call_id", NEW."agent_id", NEW."thread_id", NEW."resource_id");
    RETURN NULL;
END
$$;
CREATE TRIGGER queue_changes_waiting AFTER INSERT ON waiting_tool_calls FOR EACH ROW EXECUTE FUNCTION queue_changes_waiting();

-- A waiting run left the queue, or one of its calls did: it ran on, ended, or was deleted.
CREATE FUNCTION queue_changes_left() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD."status" <> 'suspended' OR OLD."agent_id" IS NULL THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL AND NEW."tool_call_count" >= OLD."tool_call_count" THEN
        RETURN NULL;
    END IF;
    PERFORM queue_change('left', OLD."run_id", NULL, OLD."agent_id", OLD."thread_id", OLD."resource_id");
    RETURN NULL;
END
$$;
CREATE TRIGGER queue_changes_left AFTER UPDATE OF status, agent_id, tool_call_count OR DELETE ON workflow_snapshots
FOR EACH ROW EXECUTE FUNCTION queue_changes_left();

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

-- A call was assigned, approved by one more reviewer (or the approval withdrawn), or rated by a rule.
CREATE FUNCTION queue_changes_of_call() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM queue_change_of_call(TG_ARGV[0], OLD."run_id", OLD."tool_call_id");
    ELSE
        PERFORM queue_change_of_call(TG_ARGV[0], NEW."run_id", NEW."tool_call_id");
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER queue_changes_call_assignments AFTER INSERT OR UPDATE OR DELETE ON call_assignments
FOR EACH ROW EXECUTE FUNCTION queue_changes_of_call('assigned');
CREATE TRIGGER queue_changes_call_approvals AFTER INSERT OR DELETE ON call_approvals
FOR EACH ROW EXECUTE FUNCTION queue_changes_of_call('approved');
CREATE TRIGGER queue_changes_call_rule_matches AFTER INSERT ON call_rule_matches
FOR EACH ROW WHEN (NEW."risk" IS NOT NULL) EXECUTE FUNCTION queue_changes_of_call('rated');
-- An admin applying a rule to waiting calls rewrites a call's match (lib/rules/apply.ts): a new risk is a change too.
CREATE TRIGGER queue_changes_call_rule_matches_rerated AFTER UPDATE OF risk ON call_rule_matches
FOR EACH ROW WHEN (NEW."risk" IS DISTINCT FROM OLD."risk") EXECUTE FUNCTION queue_changes_of_call('rated');

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
