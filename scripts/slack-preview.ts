/**
 * `npx tsx scripts/slack-preview.ts <dir> [--locale ko|zh-TW|en]`: what a Slack channel shows for one call, before and after
 * a decision, rendered from the very blocks the console sends (lib/webhooks/slack.ts's message of a
 * waiting approval call, lib/slack/blocks.ts's decided message) into a page that draws Block Kit's
 * section, fields, context and buttons the way Slack lays them out, and photographed in Chromium:
 * <dir>/slack-before.png, <dir>/slack-after.png. For looking at a change to the messages without a
 * Slack workspace (there is no network here); it is not Slack's renderer, only its layout.
 * `--locale`: the endpoint's language (default English); the files are then named slack-<locale>-before.png etc.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { translatorFor } from "../lib/i18n/catalogs.ts";
import { isLocale, type Locale } from "../lib/i18n/locales.ts";
import { decidedMessage } from "../lib/slack/blocks.ts";
import { slackMessage } from "../lib/webhooks/slack.ts";

const args = process.argv.slice(2);
const flag = args.indexOf("--locale");
const chosen = flag === -1 ? "en" : args[flag + 1];
if (!isLocale(chosen)) {
  console.error(`--locale must be one of en, ko, zh-TW, not ${JSON.stringify(chosen)}`);
  process.exit(2);
}
const locale: Locale = chosen;
const reader = translatorFor(locale);
const dir = path.resolve(args.find((arg, index) => !arg.startsWith("--") && (flag === -1 || index !== flag + 1)) ?? "slack-preview");
mkdirSync(dir, { recursive: true });
process.env.CONSOLE_URL ??= "https://approvals.example.com";

const call = { runId: "83481ae2-5c1e-4b8f-9d7a-0c2f6b1e4a10", toolCallId: "call_a4bb2b0f19c3" };
const waitingSince = "2026-12-04T09:12:30.000Z";
const before = slackMessage(
  {
    type: "call.waiting",
    timestamp: waitingSince,
    data: {
      ...call,
      toolName: "issueRefund",
      agentId: "refunds",
      threadId: "ticket-4812",
      resourceId: "cust_db6a5a0b",
      workflowName: "agentic-loop",
      waitingSince,
    },
  },
  {
    call: {
      ...call,
      toolName: "issueRefund",
      args: { orderId: "ORD-4812", amount: 129.9, currency: "EUR", reason: "parcel arrived damaged" },
      requiresApproval: true,
    },
    locale,
  },
);
const after = decidedMessage(
  {
    ...call,
    toolName: "issueRefund",
    reviewer: "Rita Levi",
    action: "approve",
    decidedAt: "2026-12-04T09:14:05.000Z",
    reason: null,
  },
  translatorFor(locale),
);

/** Slack's mrkdwn as HTML: the text is escaped first (the console's escaping leaves &lt; &gt; &amp;), then its markup drawn. */
function mrkdwn(text: string): string {
  // A code block is shown as it is (it is already escaped); only the text around it is markup.
  return text
    .split(/```([\s\S]*?)```/)
    .map((part, index) => (index % 2 ? `<pre>${part}</pre>` : inline(part)))
    .join("");
}

function inline(text: string): string {
  return (
    text
      // Slack writes the token's time in the reader's language and zone: here, in the message's language, in UTC.
      .replace(
        /<!date\^(\d+)\^[^|]*\|([^>]*)>/g,
        (_, seconds: string) =>
          `<time>${reader.format.dateTime(new Date(Number(seconds) * 1000), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC</time>`,
      )
      .replace(/<(https?:[^|>]+)\|([^>]+)>/g, (_, url: string, label: string) => `<a href="${url}">${label}</a>`)
      .replace(/`([^`]+)`/g, "<code>$1</code>")
      .replace(/\*([^*\n]+)\*/g, "<b>$1</b>")
      .replace(/\n/g, "<br>")
  );
}

type Block = { type: string; text?: { text: string }; fields?: Array<{ text: string }>; elements?: Array<Record<string, unknown>> };

function block(b: Block): string {
  if (b.type === "section") {
    const fields = b.fields?.length ? `<div class="fields">${b.fields.map((f) => `<div>${mrkdwn(f.text)}</div>`).join("")}</div>` : "";
    return `<div class="section">${b.text ? `<div>${mrkdwn(b.text.text)}</div>` : ""}${fields}</div>`;
  }
  if (b.type === "context") return `<div class="context">${(b.elements ?? []).map((e) => mrkdwn(String(e.text))).join(" ")}</div>`;
  if (b.type === "actions") {
    const buttons = (b.elements ?? []).map((e) => {
      const label = (e.text as { text: string }).text;
      return `<button class="${String(e.style ?? "")}">${label.replace(/[<&>]/g, "")}</button>`;
    });
    return `<div class="actions">${buttons.join("")}</div>`;
  }
  return `<pre>${JSON.stringify(b)}</pre>`;
}

function page(title: string, blocks: Block[]): string {
  return `<!doctype html><meta charset="utf-8"><style>
  body { font: 15px/1.46 Lato, "Helvetica Neue", Arial, sans-serif; color: #1d1c1d; margin: 0; padding: 20px; width: 640px; }
  .message { display: grid; grid-template-columns: 36px 1fr; gap: 8px; }
  .avatar { width: 36px; height: 36px; border-radius: 6px; background: #111; color: #fff; display: grid; place-items: center; font-weight: 700; }
  .who b { margin-right: 6px; } .who span { color: #616061; font-size: 12px; }
  .section { margin: 4px 0 8px; } .fields { display: grid; grid-template-columns: 1fr 1fr; gap: 8px 16px; margin-top: 8px; }
  .context { color: #616061; font-size: 12px; margin-bottom: 8px; }
  pre { font: 12px/1.5 Monaco, Menlo, monospace; background: #f8f8f8; border: 1px solid #e8e8e8; border-radius: 4px; padding: 8px; margin: 4px 0; white-space: pre-wrap; }
  code { font: 12px Monaco, Menlo, monospace; color: #e01e5a; background: #f8f8f8; border: 1px solid #e8e8e8; border-radius: 3px; padding: 1px 3px; }
  a { color: #1264a3; text-decoration: none; }
  .actions button { font: 700 14px Lato, Arial, sans-serif; padding: 6px 14px; margin-right: 8px; border-radius: 4px; border: 1px solid #ccc; background: #fff; }
  .actions .primary { background: #007a5a; color: #fff; border-color: #007a5a; } .actions .danger { color: #e01e5a; border-color: #e01e5a; }
  </style><title>${title}</title><div class="message"><div class="avatar">✓</div><div>
  <div class="who"><b>Agent approvals</b><span>APP</span></div>${blocks.map(block).join("")}</div></div>`;
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium" });
try {
  for (const [name, message] of [
    [locale === "en" ? "slack-before" : `slack-${locale}-before`, before],
    [locale === "en" ? "slack-after" : `slack-${locale}-after`, after],
  ] as const) {
    const html = page(name, message.blocks as Block[]);
    writeFileSync(path.join(dir, `${name}.html`), html);
    const tab = await browser.newPage({ viewport: { width: 680, height: 200 } });
    await tab.setContent(html);
    await tab.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
    await tab.close();
    console.log(path.join(dir, `${name}.png`));
  }
} finally {
  await browser.close();
}
