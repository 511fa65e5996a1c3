/**
 * What an email says: one waiting (or assigned) call, or a digest of several. Every value comes
 * from an agent or a customer and may be hostile (`<script>`, quotes, NUL, lone surrogates, line
 * breaks): the HTML part escapes each one, the plain part keeps each on its line, and the subject,
 * a header, never carries a control character (so no CR/LF from data can start a header of its own).
 * The words are the catalogs' (messages/*.json), in the recipient's language if they chose one.
 */
import { translatorFor } from "../i18n/catalogs.ts";
import type { Locale } from "../i18n/locales.ts";
import { consoleUrl, runLink } from "../links.ts";
import { toStorableText } from "../safe-text.ts";

/** A call as an email tells of it, read from its event's data (lib/notifications/calls.ts). */
export interface NotifiedCall {
  type: "call.waiting" | "call.assigned";
  runId: string;
  toolCallId: string;
  toolName: string;
  agentId: string;
  resourceId: string;
  threadId: string;
  waitingSince: Date | null;
  /** call.assigned: who assigned it. */
  assignedBy: string;
  /** call.assigned with its whole thread: how many of the thread's calls came with it (this is the first). */
  threadCalls?: number;
  /** Decided in the console before the email went out (a digest lists it as such). */
  decided: boolean;
}

export interface Email {
  subject: string;
  text: string;
  html: string;
}

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** One line of text: no NUL, no lone surrogate, no control character or line separator. */
const oneLine = (value: string, fallback = "—") => toStorableText(value).replace(CONTROLS, " ").trim() || fallback;

/** For a header: one line, and short (mail clients cut long subjects anyway). */
export function headerText(value: string): string {
  const line = oneLine(value, "");
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

export function escapeHtml(value: string): string {
  return oneLine(value).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** Who reads the email: their language and time zone (lib/i18n), English and UTC when unknown. */
export interface Reader {
  locale?: Locale | null;
  timeZone?: string | null;
}

type Translate = ReturnType<typeof translatorFor>["t"];

/** How long a call has waited, in the largest units that matter: "12 min", "3 h 5 min", "2 days". */
export function waitedFor(since: Date | null, now: Date, t: Translate = translatorFor(null).t): string {
  if (!since) return t("email.waitedUnknown");
  const minutes = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
  if (minutes < 1) return t("email.waitedUnderMinute");
  if (minutes < 60) return t("email.waitedMinutes", { minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? t("email.waitedHoursMinutes", { hours, minutes: minutes % 60 }) : t("email.waitedHours", { hours });
  return t("email.waitedDays", { days: Math.floor(hours / 24) });
}

const headline = (call: NotifiedCall, t: Translate) =>
  call.type === "call.assigned"
    ? call.threadCalls
      ? t("email.headlineAssignedThread", {
          by: oneLine(call.assignedBy),
          thread: oneLine(call.threadId),
          count: call.threadCalls,
          tool: oneLine(call.toolName),
        })
      : t("email.headlineAssigned", { by: oneLine(call.assignedBy), tool: oneLine(call.toolName) })
    : t("email.headlineWaiting", { tool: oneLine(call.toolName) });

const facts = (call: NotifiedCall, now: Date, t: Translate): Array<[string, string]> => [
  [t("email.tool"), call.toolName],
  [t("email.agent"), call.agentId],
  [t("email.resource"), call.resourceId],
  [t("email.thread"), call.threadId],
  [t("email.waitingFor"), waitedFor(call.waitingSince, now, t)],
  [t("email.run"), call.runId],
];

function callText(call: NotifiedCall, now: Date, t: Translate): string {
  const link = runLink(call.runId);
  return [
    headline(call, t),
    ...facts(call, now, t).map(([label, value]) => `  ${label}: ${oneLine(value)}`),
    `  ${link ? t("email.decideIt", { link }) : t("email.decideNoLink")}`,
  ].join("\n");
}

function callHtml(call: NotifiedCall, now: Date, t: Translate): string {
  const link = runLink(call.runId);
  const rows = facts(call, now, t)
    .map(
      ([label, value]) => `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    )
    .join("");
  const open = link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(t("email.openIt"))}</a></p>` : "";
  return `<h3 style="margin:16px 0 4px">${escapeHtml(headline(call, t))}</h3><table>${rows}</table>${open}`;
}

/** Where the link goes in the footer's HTML: the sentence is escaped first, then the link put in. */
const WHERE = "WHERE-1b7f";

function footer(t: Translate): { text: string; html: string } {
  const base = consoleUrl();
  const where = base ? `${base}/profile` : t("email.yourProfile");
  const whereHtml = base ? `<a href="${escapeHtml(where)}">${escapeHtml(where)}</a>` : escapeHtml(where);
  return {
    text: t("email.footer", { where }),
    html: `<p style="color:#666;font-size:12px">${escapeHtml(t("email.footer", { where: WHERE })).replace(WHERE, whereHtml)}</p>`,
  };
}

const page = (body: string, locale: string) =>
  `<!doctype html><html lang="${locale}"><body style="font-family:sans-serif">${body}</body></html>`;

/** The email about one call, in the reader's language. */
export function callEmail(call: NotifiedCall, now: Date, reader: Reader = {}): Email {
  const { t, locale } = translatorFor(reader.locale, reader.timeZone);
  const end = footer(t);
  const subject = call.type === "call.assigned" ? "email.subjectAssigned" : "email.subjectWaiting";
  return {
    subject: headerText(t(subject, { tool: call.toolName, agent: call.agentId, resource: call.resourceId || t("email.noResource") })),
    text: `${callText(call, now, t)}\n\n${end.text}\n`,
    html: page(`${callHtml(call, now, t)}${end.html}`, locale),
  };
}

/** The hourly digest: calls still waiting first, then those decided since they were queued. */
export function digestEmail(calls: NotifiedCall[], now: Date, reader: Reader = {}): Email {
  const { t, locale } = translatorFor(reader.locale, reader.timeZone);
  const waiting = calls.filter((call) => !call.decided);
  const decided = calls.filter((call) => call.decided);
  const end = footer(t);
  const count = t("email.calls", { count: waiting.length });
  const decidedNote = (call: NotifiedCall) => `${oneLine(call.toolName)} (${oneLine(call.agentId)}, ${oneLine(call.resourceId)})`;
  const text = [
    t("email.digestIntro", { calls: count }),
    ...waiting.map((call) => `\n${callText(call, now, t)}`),
    ...(decided.length ? [`\n${t("email.digestDecidedLine")}`, ...decided.map((call) => `  ${decidedNote(call)}`)] : []),
    `\n${end.text}`,
  ].join("\n");
  const html = [
    `<p>${escapeHtml(t("email.digestIntro", { calls: count }))}</p>`,
    ...waiting.map((call) => callHtml(call, now, t)),
    decided.length
      ? `<h3>${escapeHtml(t("email.digestDecided"))}</h3><ul>${decided.map((call) => `<li>${escapeHtml(decidedNote(call))}</li>`).join("")}</ul>`
      : "",
    end.html,
  ].join("");
  return { subject: headerText(t("email.digestSubject", { calls: count })), text: `${text}\n`, html: page(html, locale) };
}
