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
  const [
    decisions,
    approvals,
    suggestions,
    effects,
    history,
    rules,
    ruleVersions,
    ruleMatches,
    expiryRules,
    reviewSettings,
    callAssignments,
    threadAssignments,
    users,
    accounts,
    sessions,
    endpoints,
    deliveries,
    notificationPreferences,
    slackLinks,
    slackLinkCodes,
    snapshots,
  ] = await Promise.all([
    db.toolCallDecision.findMany({ orderBy: { id: "asc" } }),
    db.callApproval.findMany(),
    db.suggestion.findMany({ orderBy: { id: "asc" } }),
    db.toolEffect.findMany(),
    db.auditEvent.findMany({ where: { outcome: { not: "refused" } }, orderBy: { id: "asc" } }),
    db.rule.findMany({ orderBy: { id: "asc" } }),
    db.ruleVersion.findMany({ orderBy: [{ ruleId: "asc" }, { version: "asc" }] }),
    db.callRuleMatch.findMany(),
    db.expiryRule.findMany(),
    db.agentReviewSetting.findMany(),
    db.callAssignment.findMany(),
    db.threadAssignment.findMany(),
    db.user.findMany({ orderBy: { id: "asc" } }),
    db.account.findMany({ orderBy: { id: "asc" } }),
    // Sessions are counted, not compared: better-auth may extend one that is in use.
    db.session.count(),
    db.webhookEndpoint.findMany({ orderBy: { id: "asc" } }),
    db.webhookDelivery.findMany({ orderBy: { id: "asc" } }),
    // What a user chose, not when the email worker last sent them a digest (it runs meanwhile).
    db.notificationPreference.findMany({ select: { userId: true, email: true, updatedAt: true } }),
    db.slackLink.findMany(),
    db.slackLinkCode.count(),
    db.workflowSnapshot.findMany({ select: { runId: true, status: true, updatedAt: true }, orderBy: { runId: "asc" } }),
  ]);
  return {
    decisions,
    approvals,
    suggestions,
    effects,
    history,
    rules,
    ruleVersions,
    ruleMatches,
    expiryRules,
    reviewSettings,
    callAssignments,
    threadAssignments,
    users,
    accounts,
    sessions: [sessions],
    endpoints,
    deliveries,
    notificationPreferences,
    slackLinks,
    slackLinkCodes: [slackLinkCodes],
    snapshots,
  };
}
