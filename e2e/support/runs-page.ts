/** Helpers for the runs page (`/`) and the run detail page (`/runs/<runId>`), by their accessible names. */
import { expect, type Locator, type Page } from "@playwright/test";

export const EMPTY_STATE = "No pending tool calls match these filters";

/** The queue's totals line: "45 pending calls in 12 threads" (any number of threads unless given). */
export function pendingCallsText(calls: number, threads?: number): RegExp {
  const callsText = `${calls.toLocaleString("en-US")} pending call${calls === 1 ? "" : "s"}`;
  const threadsText = threads === undefined ? "[\\d,]+ threads?" : `${threads.toLocaleString("en-US")} thread${threads === 1 ? "" : "s"}`;
  return new RegExp(`^${callsText} in ${threadsText}$`);
}

/** The queue's totals line, for `calls` pending calls (each test run waits on one call). */
export function totalLabel(page: Page, calls: number, threads?: number): Locator {
  return page.getByTestId("queue-totals").filter({ hasText: pendingCallsText(calls, threads) });
}

export function pageLabel(page: Page, current: number, count: number): Locator {
  return page.getByText(`Page ${current} of ${count}`, { exact: true }).first();
}

/** The tool-call links of the list (text: the tool name, href: /runs/<runId>). */
export function runLinks(page: Page): Locator {
  return page.locator('a[href*="/runs/"]');
}

export function runLink(page: Page, runId: string): Locator {
  return page.locator(`a[href*="/runs/${runId}"]`);
}

/** The run ids of the tool-call links currently rendered and visible. */
export async function visibleRunIds(page: Page): Promise<string[]> {
  const links = runLinks(page);
  const ids: string[] = [];
  for (const link of await links.all()) {
    if (!(await link.isVisible())) continue;
    const href = (await link.getAttribute("href")) ?? "";
    const match = /\/runs\/([^/?#]+)/.exec(href);
    if (match) ids.push(decodeURIComponent(match[1]!));
  }
  return ids;
}

export function threadToggle(page: Page, threadId: string): Locator {
  return page.getByRole("button", { name: new RegExp(`^(Expand|Collapse) thread ${escapeRegExp(threadId)}$`) });
}

/** The toggle of the group of runs without a thread (agents used without memory). */
export function noThreadToggle(page: Page): Locator {
  return page.getByRole("button", { name: /^(Expand|Collapse) the runs with no thread$/ });
}

export function allThreadToggles(page: Page): Locator {
  return page.getByRole("button", { name: /^(Expand|Collapse) thread / });
}

/** The accessible name of a button named by aria-label or by its text. */
async function buttonName(button: Locator): Promise<string> {
  return ((await button.getAttribute("aria-label")) ?? (await button.textContent()) ?? "").trim();
}

/** The thread ids of the thread header rows on the page. */
export async function threadIdsOnPage(page: Page): Promise<string[]> {
  const ids: string[] = [];
  for (const button of await allThreadToggles(page).all()) {
    const match = /^(?:Expand|Collapse) thread (.+)$/.exec(await buttonName(button));
    if (match) ids.push(match[1]!);
  }
  return ids;
}

/** Expands every collapsed thread of the current page (whatever the default state is). */
export async function expandAllThreads(page: Page): Promise<void> {
  const collapsed = page.getByRole("button", { name: /^Expand (thread |the runs with no thread$)/ });
  for (let guard = 0; guard < 200 && (await collapsed.count()) > 0; guard++) {
    const button = collapsed.first();
    const name = await buttonName(button);
    await button.click();
    const group = name.replace(/^Expand /, "").trim();
    await expect(page.getByRole("button", { name: `Collapse ${group}`, exact: true })).toHaveAttribute("aria-expanded", "true");
  }
}

/**
 * Waits until the list is not loading. While a new page loads, the table keeps showing the previous
 * page's rows (dimmed, aria-busy) although the pager already says the new page number.
 */
export async function waitForListIdle(page: Page): Promise<void> {
  await expect(page.getByRole("main").locator('[aria-busy="true"]')).toHaveCount(0);
}

/** Waits until the list shows exactly `total` runs (header text), then returns the visible run ids after expanding threads. */
export async function runIdsAfterLoad(page: Page, total: number): Promise<string[]> {
  await expect(totalLabel(page, total)).toBeVisible();
  await waitForListIdle(page);
  await expandAllThreads(page);
  return visibleRunIds(page);
}

export function resourceFilter(page: Page): Locator {
  return page.getByRole("textbox", { name: "Resource ID" });
}

export function threadFilter(page: Page): Locator {
  return page.getByRole("textbox", { name: "Thread ID" });
}

export function agentFilter(page: Page): Locator {
  return page.getByLabel("Agent", { exact: true });
}

export function rowsPerPage(page: Page): Locator {
  return page.getByLabel("Threads per page", { exact: true });
}

/** Opens the list filtered to one resource through the URL. */
export async function openRunsOf(page: Page, resourceId: string, extra: Record<string, string> = {}): Promise<void> {
  const params = new URLSearchParams({ resourceId, ...extra });
  await page.goto(`/?${params}`);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A URL matcher for a query parameter with exactly this value. */
export function urlParam(name: string, value: string | number): RegExp {
  return new RegExp(`[?&]${escapeRegExp(name)}=${escapeRegExp(encodeURIComponent(String(value)))}(&|#|$)`);
}
