/**
 * What a refused request must leave alone, read straight from the database: every row of the tables
 * a route or server action writes, so a refusal that stored something, or changed a row in place
 * (a rule's name, a user's language), shows as a difference. Refused decision requests are written
 * to the history by design ("every refused attempt is in the history"): those rows are left out, as
 * are the events the console announces by itself meanwhile (a call starting to wait).
 */
import { getDb } from "../../lib/db/client.ts";

export async function storedState(databaseUrl: string): Promise<Record<string, unknown[]>> {
  const db = await getDb(databaseUrl);
  const reads: Record<string, Promise<unknown[] | number>> = {
    decisions: db.toolCallDecision.findMany({ orderBy: { id: "asc" } }),
    approvals: db.callApproval.findMany(),
    suggestions: db.suggestion.findMany({ orderBy: { id: "asc" } }),
    effects: db.toolEffect.findMany(),
    history: db.auditEvent.findMany({ where: { outcome: { not: "refused" } }, orderBy: { id: "asc" } }),
    rules: db.rule.findMany({ orderBy: { id: "asc" } }),
    ruleVersions: db.ruleVersion.findMany({ orderBy: [{ ruleId: "asc" }, { version: "asc" }] }),
    ruleMatches: db.callRuleMatch.findMany(),
    expiryRules: db.expiryRule.findMany(),
    reviewSettings: db.agentReviewSetting.findMany(),
    callAssignments: db.callAssignment.findMany(),
    threadAssignments: db.threadAssignment.findMany(),
    users: db.user.findMany({ orderBy: { id: "asc" } }),
    accounts: db.account.findMany({ orderBy: { id: "asc" } }),
    // Sessions are counted, not compared: better-auth may extend one that is in use.
    sessions: db.session.count(),
    endpoints: db.webhookEndpoint.findMany({ orderBy: { id: "asc" } }),
    deliveries: db.webhookDelivery.findMany({ orderBy: { id: "asc" } }),
    // What a user chose, not when the email worker last sent them a digest (it runs meanwhile).
    notificationPreferences: db.notificationPreference.findMany({ select: { userId: true, email: true, updatedAt: true } }),
    slackLinks: db.slackLink.findMany(),
    slackLinkCodes: db.slackLinkCode.count(),
    snapshots: db.workflowSnapshot.findMany({ select: { runId: true, status: true, updatedAt: true }, orderBy: { runId: "asc" } }),
  };
  const entries = await Promise.all(
    Object.entries(reads).map(async ([table, read]) => {
      const rows = await read;
      return [table, typeof rows === "number" ? [rows] : rows] as const;
    }),
  );
  return Object.fromEntries(entries);
}
