import type { Page } from "@playwright/test";
import { expect, requests, test } from "./fixtures.ts";
import { openRunsOf, runLink, threadToggle } from "./support/runs-page.ts";

/**
 * A reviewer with many console tabs (issue 45's live queue): a browser holds six HTTP/1.1
 * connections to the console, and each tab's live stream keeps one. Tabs in the background let
 * theirs go, so a seventh tab still loads; a tab shown again resumes its stream where it left off
 * and catches up on what happened meanwhile, without a reload.
 *
 * Headless Chromium reports every page visible: the test hides a tab the way the browser tells the
 * page (document.visibilityState and its visibilitychange event). The connection limit is real.
 */
const TABS = 6;

async function setVisibility(page: Page, state: "hidden" | "visible") {
  await page.evaluate((visibility) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => visibility });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => visibility === "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
  }, state);
}

async function openLiveQueue(page: Page, resource: string) {
  const streamOpened = page.waitForResponse((response) => response.url().includes("/api/events/stream") && response.status() === 200);
  await openRunsOf(page, resource);
  await streamOpened;
}

test("six tabs in the background leave room for a seventh, and a tab shown again catches up without a reload", async ({
  page,
  suspendRun,
  testResource,
}) => {
  test.setTimeout(120_000);
  const first = await suspendRun(requests.refund({ amount: "21.00", currency: "EUR" }));
  const tabs = [page];
  for (let i = 1; i < TABS; i++) tabs.push(await page.context().newPage());
  for (const tab of tabs) {
    await openLiveQueue(tab, testResource);
    await expect(runLink(tab, first.runId)).toBeVisible();
  }

  for (const tab of tabs) await setVisibility(tab, "hidden");
  const seventh = await page.context().newPage();
  await openLiveQueue(seventh, testResource);
  await expect(runLink(seventh, first.runId)).toBeVisible();
  await seventh.close();

  // Something happens while the first tab is in the background: it hears of it once shown again.
  await tabs[0]!.evaluate(() => ((window as unknown as { __e2eSameDocument?: boolean }).__e2eSameDocument = true));
  const second = await suspendRun(requests.refund({ amount: "22.00", currency: "EUR" }));
  const resumed = tabs[0]!.waitForRequest(
    (request) => request.url().includes("/api/events/stream") && request.url().includes("lastEventId="),
  );
  await setVisibility(tabs[0]!, "visible");
  await resumed;
  const toggle = threadToggle(tabs[0]!, second.thread);
  await expect(toggle).toBeVisible({ timeout: 15_000 });
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await expect(runLink(tabs[0]!, second.runId)).toBeVisible();
  expect(await tabs[0]!.evaluate(() => (window as unknown as { __e2eSameDocument?: boolean }).__e2eSameDocument), "never reloaded").toBe(
    true,
  );
  await Promise.all(tabs.slice(1).map((tab) => tab.close()));
});
