/**
 * What a console server runs beside serving requests, started once by instrumentation.ts: takes over decisions a stopped server left half-done,
 * then keeps checking, so a crash never leaves a tool call stuck (lib/decisions/recover.ts); records
 * calls decided outside the console in the history (lib/decisions/outside.ts) and expires calls that
 * waited past their agent's rule (lib/decisions/expire.ts). It also keeps SQLite's planner
 * statistics fresh as the backlog grows (lib/db/client.ts). Every second it announces calls that
 * started waiting and sends due webhooks and emails (lib/events-loop.ts).
 */
export async function startServerWork() {
  // Plain `next start` too refuses to serve without the settings every page needs.
  (await import("./configuration.mjs")).refuseToStartIfMisconfigured();
  const { numericSetting } = await import("./numeric-settings.mjs");
  // Remote mode (MASTRA_SERVER_URL): a bad URL or MASTRA_SERVER_HEADERS stops the start, named;
  // so does a malformed SMTP_URL or MAIL_FROM (email).
  try {
    (await import("./mastra/remote.ts")).remoteServer();
    (await import("./notifications/mail-config.ts")).mailSettings();
  } catch (error) {
    console.error(`Refusing to start: ${(error as Error).message}`);
    process.exit(1);
  }
  const [
    { recoverDecisions },
    { recordOutsideDecisions },
    { expireOverdueCalls },
    { decisionLeaseMs },
    { optimizeDatabase },
    { pruneCallAssignments },
  ] = await Promise.all([
    import("./decisions/recover.ts"),
    import("./decisions/outside.ts"),
    import("./decisions/expire.ts"),
    import("./decisions/ledger.ts"),
    import("./db/client.ts"),
    import("./assignments/assignments.ts"),
  ]);
  const recover = async () => {
    try {
      const report = await recoverDecisions();
      if (report.carriedOut + report.released + report.applied + report.failed > 0) {
        console.log("[recovery] decisions taken over:", JSON.stringify(report));
      }
    } catch (error) {
      console.error("[recovery] failed:", error);
    }
    await recordOutsideDecisions().catch((error: unknown) => console.error("[outside decisions] failed:", error));
    await expireOverdueCalls()
      .then((expired) => expired > 0 && console.log(`[expiry] ${expired} call(s) expired`))
      .catch((error: unknown) => console.error("[expiry] failed:", error));
    await pruneCallAssignments().catch((error: unknown) => console.error("[assignments] pruning failed:", error));
  };
  // The decision trigger counts "decided within target" against the targets this console runs with.
  await (
    await import("./insights/record.ts")
  )
    .recordReviewTargets(await (await import("./db/client.ts")).getDb())
    .catch((error: unknown) => console.error("[insights] could not record the review targets:", error));
  void recover();
  setInterval(recover, Math.min(30_000, Math.max(1_000, decisionLeaseMs() / 2))).unref();
  startEventDelivery((await import("./events-loop.ts")).deliverEventsOnce, numericSetting("WEBHOOKS_POLL_MS"));
  setInterval(
    () => optimizeDatabase().catch((error: unknown) => console.error("[optimize] failed:", error)),
    PLANNER_STATISTICS_EVERY_MS,
  ).unref();
}

/** SQLite re-samples a table only once it has changed a lot, so checking often costs little. */
const PLANNER_STATISTICS_EVERY_MS = 10 * 60_000;

/** Announcing a waiting call is what a reviewer waits for: checked often, one round at a time. */
function startEventDelivery(deliverEventsOnce: () => Promise<void>, every: number) {
  let running = false;
  setInterval(() => {
    if (running) return;
    running = true;
    void deliverEventsOnce().finally(() => (running = false));
  }, every).unref();
}
