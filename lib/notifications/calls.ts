/**
 * What the workers need to know at sending time, read fresh from the database: the call an
 * event tells of, whether it was decided meanwhile, and whether the user still wants (and may
 * receive) the email. Preferences and roles can change between queueing and sending; the latest wins.
 */
import type { Db } from "../db/client.ts";
import { can, isRole } from "../auth/roles.ts";
import { isEmailMode, type EmailMode } from "./modes.ts";
import { isLocale, type Locale } from "../i18n/locales.ts";
import { isTimeZone } from "../i18n/time-zones.ts";
import type { NotifiedCall } from "./message.ts";

const text = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));

/** The call an outbox event's payload tells of, or null when it is not one we email about. */
export function notifiedCall(payload: string): Omit<NotifiedCall, "decided"> | null {
  let event: { type?: unknown; data?: Record<string, unknown> };
  try {
    event = JSON.parse(payload) as typeof event;
  } catch {
    return null;
  }
  if ((event.type !== "call.waiting" && event.type !== "call.assigned") || !event.data) return null;
  const data = event.data;
  const since = Date.parse(text(data.waitingSince));
  return {
    type: event.type,
    runId: text(data.runId),
    toolCallId: text(data.toolCallId),
    toolName: text(data.toolName),
    agentId: text(data.agentId),
    resourceId: text(data.resourceId),
    threadId: text(data.threadId),
    waitingSince: Number.isFinite(since) ? new Date(since) : null,
    assignedBy: text(data.assignedBy),
    ...(data.assignedWith === "thread" && typeof data.threadCalls === "number" ? { threadCalls: data.threadCalls } : {}),
  };
}

/** Decided in the console: a decision that was not released again (a released call is decidable again). */
export async function decidedCalls(db: Db, calls: Array<{ runId: string; toolCallId: string }>): Promise<Set<string>> {
  if (calls.length === 0) return new Set();
  const decisions = await db.toolCallDecision.findMany({
    where: { runId: { in: [...new Set(calls.map((call) => call.runId))] }, state: { notIn: ["released", "failed"] } },
    select: { runId: true, toolCallId: true },
  });
  return new Set(decisions.map(callKey));
}

export const callKey = (call: { runId: string; toolCallId: string }) => JSON.stringify([call.runId, call.toolCallId]);

/** The address to mail and the user's choice, or null when the user is gone, banned, may no longer decide, or chose off. */
export async function recipient(
  db: Db,
  userId: string,
): Promise<{ email: string; mode: Exclude<EmailMode, "off">; locale: Locale | null; timeZone: string | null } | null> {
  const [user, preference] = await Promise.all([
    db.user.findUnique({ where: { id: userId }, select: { email: true, role: true, banned: true, locale: true, timeZone: true } }),
    db.notificationPreference.findUnique({ where: { userId }, select: { email: true } }),
  ]);
  if (!user || user.banned || !isRole(user.role) || !can(user.role, "decide")) return null;
  const mode = preference?.email;
  if (!isEmailMode(mode) || mode === "off") return null;
  // The reader's language for the email; their time zone too (unknown or invalid: English, UTC).
  return {
    email: user.email,
    mode,
    locale: isLocale(user.locale) ? user.locale : null,
    timeZone: isTimeZone(user.timeZone) ? user.timeZone : null,
  };
}
