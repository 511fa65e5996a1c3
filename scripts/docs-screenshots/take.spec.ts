/**
 * Every picture the docs show, from the demo console playwright.config.ts starts: the queue with a
 * call open (desktop and phone, English and Korean), the history and the insights after a few
 * decisions. Each is saved to docs/images under the name the docs use; `npm run docs:screenshots`
 * takes them all again, so a change to a page updates its pictures with one command.
 */
import { spawnSync } from "node:child_process";
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import type { Role } from "../../lib/auth/roles.ts";
import { DEMO_ACCOUNTS } from "../../lib/mastra/demo/accounts.ts";
import { DESKTOP, IMAGES_DIR, PHONE, SCREENSHOTS_URL } from "./settings.ts";

test.describe.configure({ mode: "serial" });

interface WaitingCall {
  runId: string;
  toolCallId: string;
  toolName: string;
  agentId: string;
  threadId?: string | null;
  resourceId?: string | null;
  requiresApproval: boolean;
}

type Device = typeof DESKTOP | typeof PHONE;
type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

/** Each role's session, signed in once: the demo allows 5 sign-ins a minute from one address. */
const sessions = new Map<Role, StorageState>();

/** A browser context signed in as the demo account of `role`, reading `locale` (Korean in Seoul's time, else Berlin's). */
async function signedIn(browser: Browser, role: Role, device: Device, locale = "en-US"): Promise<BrowserContext> {
  const timezoneId = locale.startsWith("ko") ? "Asia/Seoul" : "Europe/Berlin";
  const options = { ...device, locale, timezoneId, colorScheme: "light", reducedMotion: "reduce" } as const;
  const known = sessions.get(role);
  if (known) return browser.newContext({ ...options, storageState: known });
  const context = await browser.newContext(options);
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.role === role)!;
  const response = await context.request.post(`${SCREENSHOTS_URL}/api/auth/sign-in/email`, {
    data: { email: account.email, password: account.password },
    headers: { origin: SCREENSHOTS_URL },
  });
  expect(response.ok(), await response.text()).toBe(true);
  sessions.set(role, await context.storageState());
  return context;
}

/** The calls waiting now, as the JSON API lists them (the seeded demo's, oldest thread first). */
async function waitingCalls(context: BrowserContext, query = ""): Promise<WaitingCall[]> {
  const response = await context.request.get(`${SCREENSHOTS_URL}/api/queue?perPage=100${query}`);
  expect(response.ok(), await response.text()).toBe(true);
  const { data } = (await response.json()) as {
    data: {
      threads: Array<{ runs: Array<Omit<WaitingCall, "toolCallId" | "toolName" | "requiresApproval"> & { toolCalls: WaitingCall[] }> }>;
    };
  };
  return data.threads.flatMap((thread) => thread.runs.flatMap((run) => run.toolCalls.map((call) => ({ ...run, ...call }))));
}

/** The refund on a customer's thread that the README's picture opens: the first such call waiting. */
async function refundOnAThread(context: BrowserContext): Promise<WaitingCall> {
  const calls = await waitingCalls(context, "&resourceId=cust_1001");
  const call = calls.find((candidate) => candidate.agentId === "refunds" && candidate.toolName === "issueRefund" && candidate.threadId);
  if (!call) throw new Error("The seeded demo has no issueRefund waiting on a thread of cust_1001");
  return call;
}

/** Opens `call` in its row of the queue, filtered to its customer, and waits for its conversation. */
async function openInQueue(page: Page, call: WaitingCall): Promise<Locator> {
  await page.goto(`/?resourceId=${encodeURIComponent(call.resourceId!)}`);
  const row = page.locator(`tr[data-call-row="${call.runId}:${call.toolCallId}"]`);
  await row.getByRole("button", { name: new RegExp(call.toolName) }).click();
  const detail = page.locator(`[id="call-detail-${call.runId}:${call.toolCallId}"]`);
  await expect(detail).toBeVisible();
  await expect(detail.getByRole("button", { name: /./ }).first()).toBeVisible();
  await settle(page);
  // On a phone the thread's card starts the picture; on a desktop the page's own top does.
  if (page.viewportSize()!.width < 768) {
    await row.evaluate((element) => element.scrollIntoView({ block: "start" }));
    await page.evaluate(() => window.scrollBy(0, -110));
  } else await page.evaluate(() => window.scrollTo(0, 0));
  return detail;
}

/** Lets the page finish what it fetches and draws (the queue refreshes every 3 s: its requests are short). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(400);
}

/** Saves the viewport as docs/images/<name>.png, or the page's first `height` pixels when given (a long page). */
async function shoot(page: Page, name: string, { height }: { height?: number } = {}): Promise<void> {
  await settle(page);
  const clip = height === undefined ? undefined : { x: 0, y: 0, width: page.viewportSize()!.width, height };
  await page.screenshot({
    path: `${IMAGES_DIR}/${name}.png`,
    fullPage: clip !== undefined,
    clip,
    scale: "css",
    animations: "disabled",
    caret: "hide",
  });
}

test("the queue with a call open: desktop and phone, English and Korean", async ({ browser }) => {
  // Without a Korean font Chromium draws boxes, and the pictures would say nothing.
  const koreanFonts = spawnSync("fc-list", [":lang=ko", "family"], { encoding: "utf8" }).stdout ?? "";
  expect(koreanFonts.trim(), "No Korean font on this machine: install one (Debian: apt-get install fonts-nanum)").not.toBe("");
  for (const [device, suffix] of [
    [DESKTOP, ""],
    [PHONE, "phone-"],
  ] as const) {
    for (const locale of ["en-US", "ko-KR"]) {
      const context = await signedIn(browser, "reviewer", device, locale);
      const page = await context.newPage();
      const call = await refundOnAThread(context);
      await openInQueue(page, call);
      const language = locale.startsWith("ko") ? "-ko" : "";
      await shoot(page, `${suffix}queue-call-open${language}`);
      await context.close();
    }
  }
});

test("the history and the insights after a reviewer's decisions", async ({ browser }) => {
  const context = await signedIn(browser, "reviewer", DESKTOP);
  const approvals = (await waitingCalls(context)).filter((call) => call.requiresApproval && call.agentId === "refunds").slice(0, 4);
  const outreach = (await waitingCalls(context)).find((call) => call.requiresApproval && call.agentId === "outreach");
  const decisions = [
    ...approvals.map((call) => ({ action: "approve", call })),
    ...(outreach ? [{ action: "decline", call: outreach, reason: "Not before the customer replies" }] : []),
  ];
  for (const { action, call, reason } of decisions as Array<{ action: string; call: WaitingCall; reason?: string }>) {
    const response = await context.request.post(`${SCREENSHOTS_URL}/api/decisions`, {
      data: { action, runId: call.runId, toolCallId: call.toolCallId, ...(reason ? { reason } : {}) },
      headers: { origin: SCREENSHOTS_URL },
    });
    expect(response.ok(), await response.text()).toBe(true);
  }

  const page = await context.newPage();
  await page.goto("/history");
  await expect(page.locator("table").first()).toBeVisible();
  await shoot(page, "history");
  await page.goto("/insights?period=7");
  await expect(page.getByRole("heading").first()).toBeVisible();
  await shoot(page, "insights", { height: 1350 });
  await context.close();

  const phone = await signedIn(browser, "reviewer", PHONE);
  const phonePage = await phone.newPage();
  await phonePage.goto("/insights?period=7");
  await expect(phonePage.getByRole("heading").first()).toBeVisible();
  await shoot(phonePage, "phone-insights", { height: 1600 });
  await phone.close();
});
