/**
 * What an email says: one waiting (or assigned) call, or a digest of several. Every value comes
 * from an agent or a customer and may be hostile (`<script>`, quotes, NUL, lone surrogates, line
 * breaks): the HTML part escapes each one, the plain part keeps each on its line, and the subject,
 * a header, never carries a control character (so no CR/LF from data can start a header of its own).
 */
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

/** How long a call has waited, in the largest units that matter: "12 min", "3 h 5 min", "2 days". */
export function waitedFor(since: Date | null, now: Date): string {
  if (!since) return "an unknown time";
  const minutes = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
  if (minutes < 1) return "less than a minute";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

const headline = (call: NotifiedCall) =>
  call.type === "call.assigned"
    ? call.threadCalls
      ? `Assigned to you by ${oneLine(call.assignedBy)}: thread ${oneLine(call.threadId)} (${call.threadCalls} waiting call${call.threadCalls === 1 ? "" : "s"}, the first: ${oneLine(call.toolName)})`
      : `Assigned to you by ${oneLine(call.assignedBy)}: ${oneLine(call.toolName)}`
    : `Waiting for a reviewer: ${oneLine(call.toolName)}`;

const facts = (call: NotifiedCall, now: Date): Array<[string, string]> => [
  ["Tool", call.toolName],
  ["Agent", call.agentId],
  ["Resource", call.resourceId],
  ["Thread", call.threadId],
  ["Waiting for", waitedFor(call.waitingSince, now)],
  ["Run", call.runId],
];

function callText(call: NotifiedCall, now: Date): string {
  const link = runLink(call.runId);
  return [
    headline(call),
    ...facts(call, now).map(([label, value]) => `  ${label}: ${oneLine(value)}`),
    `  ${link ? `Decide it: ${link}` : "Decide it in the console (its address is not configured: set CONSOLE_URL)."}`,
  ].join("\n");
}

function callHtml(call: NotifiedCall, now: Date): string {
  const link = runLink(call.runId);
  const rows = facts(call, now)
    .map(([label, value]) => `<tr><th align="left" style="padding:2px 12px 2px 0">${label}</th><td>${escapeHtml(value)}</td></tr>`)
    .join("");
  const open = link ? `<p><a href="${escapeHtml(link)}">Open it in the console</a></p>` : "";
  return `<h3 style="margin:16px 0 4px">${escapeHtml(headline(call))}</h3><table>${rows}</table>${open}`;
}

function footer(): { text: string; html: string } {
  const base = consoleUrl();
  const where = base ? `${base}/profile` : "your profile in the console";
  return {
    text: `You get this email because of your notification setting; change it at ${where}.`,
    html: `<p style="color:#666;font-size:12px">You get this email because of your notification setting; change it at ${
      base ? `<a href="${escapeHtml(where)}">${escapeHtml(where)}</a>` : where
    }.</p>`,
  };
}

const page = (body: string) => `<!doctype html><html><body style="font-family:sans-serif">${body}</body></html>`;

/** The email about one call. */
export function callEmail(call: NotifiedCall, now: Date): Email {
  const end = footer();
  const verb = call.type === "call.assigned" ? "Assigned to you" : "Waiting";
  return {
    subject: headerText(`${verb}: ${call.toolName} (${call.agentId}) for ${call.resourceId || "no resource"}`),
    text: `${callText(call, now)}\n\n${end.text}\n`,
    html: page(`${callHtml(call, now)}${end.html}`),
  };
}

/** The hourly digest: calls still waiting first, then those decided since they were queued. */
export function digestEmail(calls: NotifiedCall[], now: Date): Email {
  const waiting = calls.filter((call) => !call.decided);
  const decided = calls.filter((call) => call.decided);
  const end = footer();
  const count = `${waiting.length} call${waiting.length === 1 ? "" : "s"}`;
  const decidedNote = (call: NotifiedCall) => `${oneLine(call.toolName)} (${oneLine(call.agentId)}, ${oneLine(call.resourceId)})`;
  const text = [
    `${count} waiting for a reviewer since your last digest.`,
    ...waiting.map((call) => `\n${callText(call, now)}`),
    ...(decided.length ? [`\nAlready decided in the console:`, ...decided.map((call) => `  ${decidedNote(call)}`)] : []),
    `\n${end.text}`,
  ].join("\n");
  const html = [
    `<p>${escapeHtml(count)} waiting for a reviewer since your last digest.</p>`,
    ...waiting.map((call) => callHtml(call, now)),
    decided.length
      ? `<h3>Already decided in the console</h3><ul>${decided.map((call) => `<li>${escapeHtml(decidedNote(call))}</li>`).join("")}</ul>`
      : "",
    end.html,
  ].join("");
  return { subject: headerText(`Approvals digest: ${count} waiting`), text: `${text}\n`, html: page(html) };
}
