/**
 * Propagation across instances (bench/live.ts, issue 45): two console servers on one PostgreSQL
 * database holding a backlog (bench/load-backlog.ts); approvals sent to instance A, each timed
 *  (a) from sending to its `decision.recorded` change on a stream held on instance B, and
 *  (b) from sending to its row gone from a real browser's queue on instance B (Chromium, signed in
 *      with a session cookie, the queue filtered to the run's resource so the row is on the page);
 * first with nothing else happening, then under the open-loop read mix (bench/arrivals.ts, bench/read-mix.ts)
 * at `rate` requests a second across both instances.
 */
import os from "node:os";
import { chromium, type Page } from "@playwright/test";
import { createTestAccount, sessionCookie } from "../tests/helpers/accounts.ts";
import { postDecision, startConsoleServer, type ConsoleServer } from "../tests/helpers/console-server.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../tests/helpers/demo-runs.ts";
import { openStream, type LiveStream } from "../tests/helpers/live-stream.ts";
import { CHROMIUM_LAUNCH, signedInContext } from "./browser.ts";
import { DECISIONS_PER_SECOND, openLoop, percentiles } from "./arrivals.ts";
import { backlogDatabase } from "./load-backlog.ts";
import { decider, mixInputs, picker, readMix, reviewerCookies, warmUp } from "./read-mix.ts";

export interface PropagationOptions {
  backlog: number;
  /** Requests a second of the read mix (its approvals besides). */
  rate: number;
  /** Decisions timed with nothing else happening, and under the mix. */
  idleDecisions: number;
  decisions: number;
  /** How long the mix runs; decisions not timed by then are left out. */
  loadSeconds: number;
}

export type Percentiles = ReturnType<typeof percentiles>;
export interface PropagationSide {
  /** Decisions timed on both measures. */
  n: number;
  /** Sent on A → its decision.recorded change on a stream on B. */
  eventMs: Percentiles;
  /** Sent on A → its row gone from the browser's queue on B. */
  rowMs: Percentiles;
  /** What went wrong with the others (a decision refused, an event or a row that never came). */
  failures: string[];
}
export interface PropagationResult {
  backlog: number;
  idle: PropagationSide;
  underLoad: PropagationSide & {
    rate: number;
    loadSeconds: number;
    /** The mix while the decisions were timed. */
    load: {
      achievedRate: number;
      rateReached: boolean;
      p50: number;
      p99: number;
      errors: number;
      sent: number;
      approvalsPerSecond: number;
    };
    loadAverage: number[];
  };
}

/** Times each run's approval on `a`: to its event on the stream on `b`, and to its row gone from `page` (on `b`). */
async function timeDecisions(
  runs: DemoRun[],
  { a, cookie, page, stream, until }: { a: ConsoleServer; cookie: string; page: Page; stream: LiveStream; until: number },
): Promise<PropagationSide> {
  const event: number[] = [];
  const row: number[] = [];
  const failures: string[] = [];
  for (const run of runs) {
    if (performance.now() > until) break;
    const selector = `tr[data-call-row="${run.runId}:${run.ref.toolCallId}"]`;
    // The page on B, live, with the row: under load its loads and its stream may be told 503 (busy)
    // and tried again; a page not ready in time is one decision not timed, not the end of the measure.
    try {
      const streamOpened = page.waitForResponse((response) => response.url().includes("/api/events/stream") && response.status() === 200);
      streamOpened.catch(() => undefined); // awaited below, unless the page load failed first
      await page.goto(`/?resourceId=${encodeURIComponent(run.resource)}`);
      await streamOpened;
      await page.locator(selector).waitFor({ timeout: 30_000 });
      // Watches for the row to go before the decision leaves: resolves with the page's clock (Date.now()) then.
      await page.evaluate((rowSelector) => {
        (window as unknown as { rowGone: Promise<number> }).rowGone = new Promise<number>((resolve) => {
          const observer = new MutationObserver(() => {
            if (document.querySelector(rowSelector)) return;
            observer.disconnect();
            resolve(Date.now());
          });
          observer.observe(document.body, { childList: true, subtree: true });
        });
      }, selector);
    } catch (error) {
      failures.push(`${run.runId}: the queue on B was not ready: ${(error as Error).message.slice(0, 200)}`);
      continue;
    }
    const sentAt = Date.now();
    const sent = performance.now();
    const decided = postDecision(a, cookie, { action: "approve", ...run.ref });
    try {
      const seen = await stream.waitFor(
        (e) => e.event === "change" && e.data.includes(run.runId) && e.data.includes('"decision.recorded"'),
        30_000,
      );
      const goneAt = await Promise.race([
        page.evaluate(() => (window as unknown as { rowGone: Promise<number> }).rowGone),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the row was still on the page after 30 s")), 30_000)),
      ]);
      const answer = await decided;
      if (answer.status !== 200) throw new Error(`POST /api/decisions: ${answer.status} ${JSON.stringify(answer.body.error)}`);
      event.push(seen.at - sent);
      row.push(goneAt - sentAt);
    } catch (error) {
      failures.push(`${run.runId}: ${(error as Error).message.slice(0, 200)}`);
      await decided.catch(() => undefined);
    }
  }
  return { n: event.length, eventMs: percentiles(event), rowMs: percentiles(row), failures };
}

export async function measurePropagation(options: PropagationOptions, log: (line: string) => void): Promise<PropagationResult> {
  const database = await backlogDatabase("postgres", options.backlog, log);
  const servers: ConsoleServer[] = [];
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
  try {
    const cookies = await reviewerCookies(database.url);
    const watcher = await createTestAccount(database.url, "reviewer", "Watcher on B");
    const watcherCookie = await sessionCookie(database.url, watcher);
    // The mix's calls first, so that it never approves one of the runs timed here.
    const { runIds, approvable } = await mixInputs(database.url, DECISIONS_PER_SECOND * options.loadSeconds + 20);
    log(`propagation: suspending ${options.idleDecisions + options.decisions} refund runs, one resource each…`);
    const runs: DemoRun[] = [];
    for (let i = 0; i < options.idleDecisions + options.decisions; i++)
      runs.push(await suspendDemoRun(database.url, "refunds", refundRequest(`ORD-P${i}`)));
    servers.push(...(await Promise.all([1, 2].map(() => startConsoleServer(database.url)))));
    const [a, b] = servers as [ConsoleServer, ConsoleServer];
    const mix = readMix(runIds);
    const decide = decider(approvable);
    await warmUp(servers, cookies[0]!, mix, decide, 3, log);

    browser = await chromium.launch(CHROMIUM_LAUNCH);
    const context = await signedInContext(browser, b.url, watcherCookie);
    const page = await context.newPage();
    const stream = await openStream(b, watcherCookie);
    if (stream.status !== 200) throw new Error(`GET /api/events/stream on B: ${stream.status}`);
    const timing = { a, cookie: cookies[0]!, page, stream };

    // The first decision on A resumes its agent there for the first time (modules loaded): not counted.
    const [first, ...rest] = runs;
    await timeDecisions([first!], { ...timing, until: Infinity });
    const idle = await timeDecisions(rest.slice(0, options.idleDecisions - 1), { ...timing, until: Infinity });
    log(
      `  idle: event on B p50 ${idle.eventMs.p50} / p95 ${idle.eventMs.p95} ms, row gone in the browser on B p50 ${idle.rowMs.p50} / p95 ${idle.rowMs.p95} ms (${idle.n} decisions)`,
    );

    const started = performance.now();
    const loading = openLoop(options.loadSeconds, servers, cookies, options.rate, picker(mix), decide);
    // Decisions start once the mix is under way and stop in time to finish inside it.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const timed = await timeDecisions(rest.slice(options.idleDecisions - 1), {
      ...timing,
      until: started + (options.loadSeconds - 5) * 1000,
    });
    const load = await loading;
    const loadAverage = os.loadavg().map((x) => Math.round(x * 10) / 10);
    stream.close();
    const underLoad = {
      ...timed,
      rate: options.rate,
      loadSeconds: options.loadSeconds,
      load: {
        achievedRate: load.achievedRate,
        rateReached: load.rateReached,
        p50: load.latencyMs.p50,
        p99: load.latencyMs.p99,
        errors: load.errors,
        sent: load.sent,
        approvalsPerSecond: DECISIONS_PER_SECOND,
      },
      loadAverage,
    };
    log(
      `  under the mix at ${options.rate} req/s (answered ${load.achievedRate}/s, p99 ${load.latencyMs.p99} ms, errors ${load.errors}/${load.sent}): event on B p50 ${timed.eventMs.p50} / p95 ${timed.eventMs.p95} / p99 ${timed.eventMs.p99} ms, row gone p50 ${timed.rowMs.p50} / p95 ${timed.rowMs.p95} / p99 ${timed.rowMs.p99} ms (${timed.n} decisions); load average ${loadAverage[0]}`,
    );
    for (const failure of [...idle.failures, ...timed.failures]) log(`  failed: ${failure}`);
    return { backlog: options.backlog, idle, underLoad };
  } finally {
    await browser?.close();
    await Promise.all(servers.map((server) => server.stop()));
    await database.drop();
  }
}
