/**
 * `npx tsx bench/live-herd.ts [--tabs 20] [--decisions 8] [--gap-ms 1500] [--db postgres|sqlite]`: how
 * many times the open tabs read the queue's list because of decisions made elsewhere (issue 45).
 * One console server (`next build` first) on a fresh database with `--decisions` waiting calls, one
 * thread each, all on the first page; `--tabs` queue tabs in one Chromium, each with its live stream;
 * then the calls are approved through POST /api/decisions by another reviewer, one every `--gap-ms`.
 * Prints the list reads (the queue page's server action, POST /) per decision per tab, the most sent
 * by all tabs within any 250 ms (the herd a decision sets off), and whether every row left every tab.
 */
import { chromium, type Request } from "@playwright/test";
import { CHROMIUM_LAUNCH, signedInContext } from "./browser.ts";
import { createTestAccount, sessionCookie } from "../tests/helpers/accounts.ts";
import { postDecision, startConsoleServer } from "../tests/helpers/console-server.ts";
import { createTestDatabase } from "../tests/helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../tests/helpers/demo-runs.ts";
import { disconnectDb } from "../lib/db/client.ts";

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1]!;
};
const TABS = Number(option("tabs", "20"));
const DECISIONS = Number(option("decisions", "8"));
const GAP_MS = Number(option("gap-ms", "1500"));
const DB = option("db", "postgres");
if (DB !== "postgres" && DB !== "sqlite") throw new Error("--db must be postgres or sqlite");
const WINDOW_MS = 250;

const database = await createTestDatabase(DB);
const server = await startConsoleServer(database.url, { LIVE_STREAMS_PER_USER: String(TABS + 10) });
const browser = await chromium.launch(CHROMIUM_LAUNCH);
try {
  const decider = await createTestAccount(database.url, "reviewer", "Decider");
  const deciderCookie = await sessionCookie(database.url, decider);
  const runs: DemoRun[] = [];
  for (let i = 0; i < DECISIONS; i++) runs.push(await suspendDemoRun(database.url, "refunds", refundRequest(`ORD-H${i}`)));

  const reads: Array<{ tab: number; at: number }> = [];
  const pages = [];
  for (let tab = 0; tab < TABS; tab++) {
    // A context per tab, as separate reviewers: one browser holds at most 6 connections to a server
    // over HTTP/1.1, and each tab's stream keeps one.
    const cookie = await sessionCookie(database.url, await createTestAccount(database.url, "reviewer", `Watcher ${tab + 1}`));
    const context = await signedInContext(browser, server.url, cookie);
    const page = await context.newPage();
    const streamOpened = page.waitForResponse((response) => response.url().includes("/api/events/stream") && response.status() === 200);
    await page.goto("/");
    await streamOpened;
    await page
      .locator("tr[data-call-row]")
      .nth(DECISIONS - 1)
      .waitFor({ timeout: 60_000 });
    page.on("request", (request: Request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/" && request.headers()["next-action"])
        reads.push({ tab, at: performance.now() });
    });
    pages.push(page);
  }
  console.log(`${TABS} tabs on ${DB}, each showing ${DECISIONS} waiting calls; approving one every ${GAP_MS} ms elsewhere…`);

  for (const run of runs) {
    const answer = await postDecision(server, deciderCookie, { action: "approve", ...run.ref });
    if (answer.status !== 200) throw new Error(`POST /api/decisions: ${answer.status} ${JSON.stringify(answer.body.error)}`);
    await new Promise((resolve) => setTimeout(resolve, GAP_MS));
  }
  // Every row gone from every tab, then a throttled read's longest wait (5 s) and some.
  const left = await Promise.all(
    pages.map((page) =>
      page
        .locator("tr[data-call-row]")
        .first()
        .waitFor({ state: "detached", timeout: 30_000 })
        .then(() => true)
        .catch(() => false),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 7_000));

  const times = reads.map((read) => read.at).sort((a, b) => a - b);
  let burst = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! > WINDOW_MS) j++;
    burst = Math.max(burst, i - j + 1);
  }
  const result = {
    db: DB,
    tabs: TABS,
    decisions: DECISIONS,
    gapMs: GAP_MS,
    listReads: reads.length,
    readsPerDecisionPerTab: Number((reads.length / DECISIONS / TABS).toFixed(2)),
    mostReadsWithin250Ms: burst,
    tabsEmptied: left.filter(Boolean).length,
  };
  console.log(
    `list reads: ${result.listReads} (${result.readsPerDecisionPerTab} per decision per tab); most within ${WINDOW_MS} ms: ${burst}; tabs whose rows all left: ${result.tabsEmptied}/${TABS}`,
  );
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
  await server.stop();
  await disconnectDb(database.url);
  await database.drop();
}
