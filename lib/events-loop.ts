/**
 * One round of the maintenance loop's event work (lib/server-work.ts): announce the calls that
 * started waiting (and let the enabled rules decide them, lib/rules/auto-decide.ts), and (every ANNOUNCE_EVERY_MS, not every round: a few seconds late is on time for
 * a target counted in minutes) those that crossed a time (overdue, about to expire); send due
 * webhooks and emails; now and then prune. Outside lib/'s folders on purpose: it runs lib/events,
 * lib/announcements, lib/webhooks and lib/notifications, which import each other in one direction only.
 */
import { getDb } from "./db/client.ts";
import { checkpointIfDue } from "./audit/checkpoint.ts";
import { pruneAnnouncements } from "./announcements/record.ts";
import { pruneFeed } from "./live/feed.ts";
import { prunePresence } from "./live/presence.ts";
import { numericSetting } from "./numeric-settings.mjs";
import { announceExpiringCalls } from "./announcements/expiring.ts";
import { announceOverdueCalls } from "./announcements/overdue.ts";
import { recordWaitingCalls } from "./events/waiting.ts";
import { decideRuleMatches, prepareRuleMatches } from "./rules/auto-decide.ts";
import { sendDueEmails } from "./notifications/worker.ts";
import { pruneOutbox } from "./webhooks/retention.ts";
import { deliverDueWebhooks } from "./webhooks/worker.ts";

const PRUNE_EVERY_MS = 3_600_000;
const ANNOUNCE_EVERY_MS = 10_000;
// The live queue's feed grows with every change a reader sees: kept bounded minute by minute.
const PRUNE_FEED_EVERY_MS = 60_000;
let lastPruned = 0;
let lastFeedPruned = 0;
let lastAnnounced = 0;

export async function deliverEventsOnce(): Promise<void> {
  await recordWaitingCalls(undefined, prepareRuleMatches).catch((error: unknown) => console.error("[events] waiting calls failed:", error));
  await decideRuleMatches().catch((error: unknown) => console.error("[rules] deciding by rule failed:", error));
  if (Date.now() - lastAnnounced >= ANNOUNCE_EVERY_MS) {
    lastAnnounced = Date.now();
    await announceOverdueCalls().catch((error: unknown) => console.error("[events] overdue calls failed:", error));
    await announceExpiringCalls().catch((error: unknown) => console.error("[events] expiring calls failed:", error));
    await checkpointIfDue(await getDb()).catch((error: unknown) => console.error("[audit] checkpoint failed:", error));
  }
  await deliverDueWebhooks().catch((error: unknown) => console.error("[webhooks] delivery failed:", error));
  await sendDueEmails().catch((error: unknown) => console.error("[email] sending failed:", error));
  if (Date.now() - lastFeedPruned >= PRUNE_FEED_EVERY_MS) {
    lastFeedPruned = Date.now();
    const keep = { keepMinutes: numericSetting("LIVE_FEED_KEEP_MINUTES"), keepRows: numericSetting("LIVE_FEED_KEEP_ROWS") };
    await pruneFeed(await getDb(), keep).catch((error: unknown) => console.error("[live] pruning the change feed failed:", error));
    // Open calls of streams whose instance died: gone within a minute of expiring.
    await prunePresence(await getDb()).catch((error: unknown) => console.error("[live] pruning open calls failed:", error));
  }
  if (Date.now() - lastPruned < PRUNE_EVERY_MS) return;
  lastPruned = Date.now();
  await pruneOutbox().catch((error: unknown) => console.error("[events] pruning the outbox failed:", error));
  await pruneAnnouncements(await getDb()).catch((error: unknown) => console.error("[events] pruning announcements failed:", error));
}
