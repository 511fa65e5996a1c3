-- CreateTable
CREATE TABLE "call_reviews" (
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    -- Byte order, whatever the database's collation: the resource-prefix filter reads a range of it.
    "resource_id" TEXT COLLATE "C",
    "waiting_since" TIMESTAMP(3),
    "decided_at" TIMESTAMP(3),
    "decided_by" TEXT,
    "action" TEXT,
    "source" TEXT,
    "risk" TEXT,
    "context_opened" BOOLEAN,

    CONSTRAINT "call_reviews_pkey" PRIMARY KEY ("run_id","tool_call_id")
);

-- CreateTable
CREATE TABLE "call_views" (
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "reviewer" TEXT NOT NULL,
    "opened_at" TIMESTAMP(3) NOT NULL,
    "context_opened_at" TIMESTAMP(3),

    CONSTRAINT "call_views_pkey" PRIMARY KEY ("run_id","tool_call_id","reviewer")
);

-- CreateTable
CREATE TABLE "insight_targets" (
    "risk" TEXT NOT NULL,
    "minutes" INTEGER NOT NULL,

    CONSTRAINT "insight_targets_pkey" PRIMARY KEY ("risk")
);

-- CreateTable
CREATE TABLE "insight_days" (
    "day" INTEGER NOT NULL,
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "risk" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "timed" INTEGER NOT NULL,
    "within_target" INTEGER NOT NULL,
    "wait_ms" BIGINT NOT NULL,

    CONSTRAINT "insight_days_pkey" PRIMARY KEY ("day","agent_id","tool_name","risk","source","action")
);

-- CreateTable
CREATE TABLE "insight_hours" (
    "hour" INTEGER NOT NULL,
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "risk" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "timed" INTEGER NOT NULL,
    "within_target" INTEGER NOT NULL,
    "wait_ms" BIGINT NOT NULL,

    CONSTRAINT "insight_hours_pkey" PRIMARY KEY ("hour","agent_id","tool_name","risk","source","action")
);

-- CreateTable
CREATE TABLE "insight_wait_days" (
    "day" INTEGER NOT NULL,
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "risk" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,

    CONSTRAINT "insight_wait_days_pkey" PRIMARY KEY ("day","agent_id","tool_name","risk","bucket")
);

-- CreateTable
CREATE TABLE "insight_reviewer_days" (
    "day" INTEGER NOT NULL,
    "reviewer" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "risk" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "approved" INTEGER NOT NULL,
    "unopened" INTEGER NOT NULL,
    "quick" INTEGER NOT NULL,
    "streak" INTEGER NOT NULL,

    CONSTRAINT "insight_reviewer_days_pkey" PRIMARY KEY ("day","reviewer","agent_id","tool_name","risk")
);

-- CreateTable
CREATE TABLE "insight_reviewer_waits" (
    "day" INTEGER NOT NULL,
    "reviewer" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,

    CONSTRAINT "insight_reviewer_waits_pkey" PRIMARY KEY ("day","reviewer","bucket")
);

-- CreateTable
CREATE TABLE "insight_streaks" (
    "reviewer" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "run_length" INTEGER NOT NULL,

    CONSTRAINT "insight_streaks_pkey" PRIMARY KEY ("reviewer")
);

-- CreateIndex
CREATE INDEX "call_reviews_resource_id_decided_at_idx" ON "call_reviews"("resource_id", "decided_at");

-- CreateIndex
CREATE INDEX "call_reviews_resource_id_waiting_since_idx" ON "call_reviews"("resource_id", "waiting_since");

-- The insights' rollups, kept exact by triggers in the transaction of the change they count (the
-- README's "Insights: how each number is counted"). Timestamps are UTC without a zone, as Prisma
-- writes them; days and hours are counted since 1970-01-01 UTC.

CREATE FUNCTION insights_wait_ms(waiting_since TIMESTAMP(3), decided_at TIMESTAMP(3)) RETURNS BIGINT
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN waiting_since IS NULL THEN 0
        ELSE greatest(0, round(extract(epoch FROM (decided_at - waiting_since)) * 1000))::BIGINT END
$$;

CREATE FUNCTION insights_risk(p_run_id TEXT, p_tool_call_id TEXT) RETURNS TEXT
LANGUAGE sql STABLE AS $$
    SELECT COALESCE((SELECT risk FROM call_rule_matches WHERE run_id = p_run_id AND tool_call_id = p_tool_call_id), 'unrated')
$$;

-- A call that starts waiting counts as arrived in its day and hour.
CREATE FUNCTION call_reviews_arrived() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO insight_days (day, agent_id, tool_name, risk, source, action, calls, timed, within_target, wait_ms)
    VALUES (floor(extract(epoch FROM NEW.waiting_since) / 86400)::INT, NEW.agent_id, NEW.tool_name, insights_risk(NEW.run_id, NEW.tool_call_id),
        'arrived', 'wait', 1, 0, 0, 0)
    ON CONFLICT (day, agent_id, tool_name, risk, source, action) DO UPDATE SET calls = insight_days.calls + 1;
    INSERT INTO insight_hours (hour, agent_id, tool_name, risk, source, action, calls, timed, within_target, wait_ms)
    VALUES (floor(extract(epoch FROM NEW.waiting_since) / 3600)::INT, NEW.agent_id, NEW.tool_name, insights_risk(NEW.run_id, NEW.tool_call_id),
        'arrived', 'wait', 1, 0, 0, 0)
    ON CONFLICT (hour, agent_id, tool_name, risk, source, action) DO UPDATE SET calls = insight_hours.calls + 1;
    RETURN NULL;
END $$;

CREATE TRIGGER call_reviews_arrived AFTER INSERT ON call_reviews
FOR EACH ROW WHEN (NEW.waiting_since IS NOT NULL) EXECUTE FUNCTION call_reviews_arrived();

-- A decision carried out (or a call expired, or marked expired) ends the call's review.
CREATE FUNCTION tool_call_decisions_insights() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r call_reviews%ROWTYPE;
    v_wait_ms BIGINT;
    v_target INT;
    v_day INT;
    v_bucket INT;
    v_streak_length INT;
    v_quick BOOLEAN;
BEGIN
    INSERT INTO call_reviews (run_id, tool_call_id, agent_id, tool_name, resource_id)
    VALUES (NEW.run_id, NEW.tool_call_id, NEW.agent_id, COALESCE(NEW.tool_name, ''), NEW.resource_id)
    ON CONFLICT DO NOTHING;
    UPDATE call_reviews SET
        decided_at = NEW.decided_at,
        decided_by = NEW.reviewer,
        action = NEW.action,
        source = CASE WHEN NEW.action = 'expire' THEN 'expiry' WHEN NEW.rule_id IS NOT NULL THEN 'rule'
            WHEN NEW.reviewer LIKE 'suggestion by %' THEN 'suggestion' ELSE 'person' END,
        risk = insights_risk(NEW.run_id, NEW.tool_call_id),
        context_opened = EXISTS (SELECT 1 FROM call_views v WHERE v.run_id = NEW.run_id AND v.tool_call_id = NEW.tool_call_id
            AND v.reviewer = NEW.reviewer AND v.context_opened_at IS NOT NULL)
    WHERE call_reviews.run_id = NEW.run_id AND call_reviews.tool_call_id = NEW.tool_call_id AND call_reviews.decided_at IS NULL
    RETURNING * INTO r;
    IF NOT FOUND THEN RETURN NULL; END IF;

    v_wait_ms := insights_wait_ms(r.waiting_since, r.decided_at);
    SELECT minutes INTO v_target FROM insight_targets WHERE insight_targets.risk = r.risk;
    INSERT INTO insight_days (day, agent_id, tool_name, risk, source, action, calls, timed, within_target, wait_ms)
    VALUES (floor(extract(epoch FROM r.decided_at) / 86400)::INT, r.agent_id, r.tool_name, r.risk, r.source, r.action, 1,
        CASE WHEN r.waiting_since IS NULL THEN 0 ELSE 1 END, CASE WHEN r.waiting_since IS NOT NULL AND v_wait_ms < COALESCE(v_target, 0) * 60000 THEN 1 ELSE 0 END, v_wait_ms)
    ON CONFLICT (day, agent_id, tool_name, risk, source, action) DO UPDATE SET
        calls = insight_days.calls + 1, timed = insight_days.timed + excluded.timed,
        within_target = insight_days.within_target + excluded.within_target, wait_ms = insight_days.wait_ms + excluded.wait_ms;
    INSERT INTO insight_hours (hour, agent_id, tool_name, risk, source, action, calls, timed, within_target, wait_ms)
    VALUES (floor(extract(epoch FROM r.decided_at) / 3600)::INT, r.agent_id, r.tool_name, r.risk, r.source, r.action, 1,
        CASE WHEN r.waiting_since IS NULL THEN 0 ELSE 1 END, CASE WHEN r.waiting_since IS NOT NULL AND v_wait_ms < COALESCE(v_target, 0) * 60000 THEN 1 ELSE 0 END, v_wait_ms)
    ON CONFLICT (hour, agent_id, tool_name, risk, source, action) DO UPDATE SET
        calls = insight_hours.calls + 1, timed = insight_hours.timed + excluded.timed,
        within_target = insight_hours.within_target + excluded.within_target, wait_ms = insight_hours.wait_ms + excluded.wait_ms;

    IF r.source <> 'person' THEN RETURN NULL; END IF;

    -- The reviewer's run of identical approvals (same agent and tool) goes on or restarts.
    INSERT INTO insight_streaks (reviewer, agent_id, tool_name, run_length)
    VALUES (r.decided_by, r.agent_id, r.tool_name, CASE WHEN r.action = 'approve' THEN 1 ELSE 0 END)
    ON CONFLICT (reviewer) DO UPDATE SET
        run_length = CASE WHEN excluded.run_length = 1 AND insight_streaks.agent_id = excluded.agent_id
            AND insight_streaks.tool_name = excluded.tool_name THEN insight_streaks.run_length + 1 ELSE excluded.run_length END,
        agent_id = excluded.agent_id, tool_name = excluded.tool_name
    RETURNING run_length INTO v_streak_length;

    v_day := floor(extract(epoch FROM r.decided_at) / 86400)::INT;
    v_bucket := CASE WHEN r.waiting_since IS NULL THEN -1 ELSE floor(ln(1 + v_wait_ms / 1000.0) / ln(1.25))::INT END;
    v_quick := r.action = 'approve' AND NOT r.context_opened AND EXISTS (
        SELECT 1 FROM call_views v WHERE v.run_id = r.run_id AND v.tool_call_id = r.tool_call_id AND v.reviewer = r.decided_by
            AND r.decided_at - v.opened_at <= interval '5 seconds');

    INSERT INTO insight_wait_days (day, agent_id, tool_name, risk, bucket, calls)
    VALUES (v_day, r.agent_id, r.tool_name, r.risk, v_bucket, 1)
    ON CONFLICT (day, agent_id, tool_name, risk, bucket) DO UPDATE SET calls = insight_wait_days.calls + 1;

    INSERT INTO insight_reviewer_waits (day, reviewer, bucket, calls)
    VALUES (v_day, r.decided_by, v_bucket, 1)
    ON CONFLICT (day, reviewer, bucket) DO UPDATE SET calls = insight_reviewer_waits.calls + 1;

    INSERT INTO insight_reviewer_days (day, reviewer, agent_id, tool_name, risk, calls, approved, unopened, quick, streak)
    VALUES (v_day, r.decided_by, r.agent_id, r.tool_name, r.risk, 1,
        CASE WHEN r.action = 'approve' THEN 1 ELSE 0 END,
        CASE WHEN r.context_opened THEN 0 ELSE 1 END,
        CASE WHEN v_quick THEN 1 ELSE 0 END,
        CASE WHEN r.action = 'approve' AND v_streak_length >= 10 THEN 1 ELSE 0 END)
    ON CONFLICT (day, reviewer, agent_id, tool_name, risk) DO UPDATE SET
        calls = insight_reviewer_days.calls + 1, approved = insight_reviewer_days.approved + excluded.approved,
        unopened = insight_reviewer_days.unopened + excluded.unopened, quick = insight_reviewer_days.quick + excluded.quick,
        streak = insight_reviewer_days.streak + excluded.streak;
    RETURN NULL;
END $$;

CREATE TRIGGER tool_call_decisions_insights AFTER UPDATE OF state ON tool_call_decisions
FOR EACH ROW WHEN (NEW.state = 'applied' AND OLD.state <> 'applied') EXECUTE FUNCTION tool_call_decisions_insights();

-- A call that stopped waiting without a decision here (lib/decisions/outside.ts) ends as "outside".
CREATE FUNCTION audit_events_decided_outside_insights() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r call_reviews%ROWTYPE;
    v_wait_ms BIGINT;
BEGIN
    INSERT INTO call_reviews (run_id, tool_call_id, agent_id, tool_name, resource_id)
    VALUES (NEW.run_id, NEW.tool_call_id, COALESCE(NEW.agent_id, ''), COALESCE(NEW.tool_name, ''), NEW.resource_id)
    ON CONFLICT DO NOTHING;
    UPDATE call_reviews SET decided_at = NEW.at, decided_by = NEW.reviewer, action = 'outside', source = 'outside',
        risk = insights_risk(NEW.run_id, NEW.tool_call_id)
    WHERE call_reviews.run_id = NEW.run_id AND call_reviews.tool_call_id = NEW.tool_call_id AND call_reviews.decided_at IS NULL
    RETURNING * INTO r;
    IF NOT FOUND THEN RETURN NULL; END IF;
    v_wait_ms := insights_wait_ms(r.waiting_since, r.decided_at);
    INSERT INTO insight_days (day, agent_id, tool_name, risk, source, action, calls, timed, within_target, wait_ms)
    VALUES (floor(extract(epoch FROM r.decided_at) / 86400)::INT, r.agent_id, r.tool_name, r.risk, 'outside', 'outside', 1,
        CASE WHEN r.waiting_since IS NULL THEN 0 ELSE 1 END, 0, v_wait_ms)
    ON CONFLICT (day, agent_id, tool_name, risk, source, action) DO UPDATE SET
        calls = insight_days.calls + 1, timed = insight_days.timed + excluded.timed,
        within_target = insight_days.within_target + excluded.within_target, wait_ms = insight_days.wait_ms + excluded.wait_ms;
    INSERT INTO insight_hours (hour, agent_id, tool_name, risk, source, action, calls, timed, within_target, wait_ms)
    VALUES (floor(extract(epoch FROM r.decided_at) / 3600)::INT, r.agent_id, r.tool_name, r.risk, 'outside', 'outside', 1,
        CASE WHEN r.waiting_since IS NULL THEN 0 ELSE 1 END, 0, v_wait_ms)
    ON CONFLICT (hour, agent_id, tool_name, risk, source, action) DO UPDATE SET
        calls = insight_hours.calls + 1, timed = insight_hours.timed + excluded.timed,
        within_target = insight_hours.within_target + excluded.within_target, wait_ms = insight_hours.wait_ms + excluded.wait_ms;
    RETURN NULL;
END $$;

CREATE TRIGGER audit_events_decided_outside_insights AFTER INSERT ON audit_events
FOR EACH ROW WHEN (NEW.outcome = 'decided-outside') EXECUTE FUNCTION audit_events_decided_outside_insights();
