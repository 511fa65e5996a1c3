import type { Page } from "@playwright/test";
import { expect, requests, test } from "./fixtures.ts";
import { EMPTY_STATE, openRunsOf, runLink, threadToggle } from "./support/runs-page.ts";
import { recordRequests } from "./support/idle-requests.ts";
import { signedInPage } from "./support/users.ts";

/**
 * The live queue (issue 45): two reviewers in two browsers; one approves a call from its page, and
 * the other's queue loses the row on its own, without a reload and without reading the list on a
 * timer: while nothing changes its page sends no request at all, and it reads the list again only
 * once the stream said the call it shows was decided.
 */
test("one reviewer approves; the other's queue drops the row without a reload or a timer", async ({
  browser,
  baseURL,
  suspendRun,
  testResource,
  users,
}) => {
  const run = await suspendRun(requests.refund({ amount: "12.00", currency: "EUR" }));
  const [deciding, watching] = (await Promise.all(
    ["Ada Lovelace", "Grace Hopper"].map(async (name) => {
      const account = await users.create({ role: "reviewer", name });
      return signedInPage(browser, baseURL!, account);
    }),
  )) as [Page, Page];

  const streamOpened = watching.waitForResponse((response) => response.url().includes("/api/events/stream") && response.status() === 200);
  await openRunsOf(watching, testResource);
  await streamOpened;
  const toggle = threadToggle(watching, run.thread);
  await expect(toggle).toBeVisible();
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await expect(runLink(watching, run.runId)).toBeVisible();
  // A marker in the page's JavaScript realm survives only if the document is never reloaded.
  await watching.evaluate(() => ((window as unknown as { __e2eSameDocument?: boolean }).__e2eSameDocument = true));

  // Longer than the 3 s the list used to be read on: nothing changed, so nothing is sent.
  const sent = recordRequests(watching);
  await watching.waitForTimeout(4_000);
  expect(sent.map((request) => `${request.method()} ${request.url()}`)).toEqual([]);

  await deciding.goto(`/runs/${run.runId}`);
  await deciding.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(deciding.getByRole("status").filter({ hasText: "Approved." })).toBeVisible();

  await expect(runLink(watching, run.runId)).toHaveCount(0, { timeout: 10_000 });
  await expect(watching.getByText(EMPTY_STATE)).toBeVisible();
  expect(await watching.evaluate(() => (window as unknown as { __e2eSameDocument?: boolean }).__e2eSameDocument), "never reloaded").toBe(
    true,
  );
  // The row went at the stream's word that the decision was recorded, before any read. The list is
  // read again once the decision was carried out (the run may wait on more): a few reads (the
  // decision's steps may come apart), no page loads.
  await expect.poll(() => sent.length, { timeout: 10_000 }).toBeGreaterThan(0);
  expect(sent.length).toBeLessThanOrEqual(4);
  for (const request of sent) expect(request.method(), request.url()).toBe("POST");
  await Promise.all([deciding, watching].map((page) => page.context().close()));
});

/**
 * A call another reviewer's console has claimed leaves the queue at the stream's word, while the
 * decision is still being carried out (here: forever, its process killed after recording it), and
 * without a read of the list: the page knows what to hide. A reload still shows who is deciding.
 */
test("a call claimed elsewhere leaves the queue at once, before its decision is carried out, without reading the list", async ({
  page,
  suspendRun,
  holdDecision,
  testResource,
}) => {
  const run = await suspendRun(requests.refund({ amount: "14.00", currency: "EUR" }));
  const streamOpened = page.waitForResponse((response) => response.url().includes("/api/events/stream") && response.status() === 200);
  await openRunsOf(page, testResource);
  await streamOpened;
  const toggle = threadToggle(page, run.thread);
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await expect(runLink(page, run.runId)).toBeVisible();

  const sent = recordRequests(page);
  await holdDecision(run);
  await expect(runLink(page, run.runId)).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByText(EMPTY_STATE)).toBeVisible();
  expect(sent.map((request) => `${request.method()} ${request.url()}`)).toEqual([]);

  await page.reload();
  await expect(page.getByText("Being decided by crash-tester", { exact: true })).toBeVisible();
});

/**
 * Conditional reads (issue 45): a tab that comes back into focus asks whether its queue changed,
 * naming the version it has; nothing changed, so the server answers only "unchanged" and the rows stay.
 */
test("a tab back in focus asks whether its queue changed and is told it did not, keeping its rows", async ({
  page,
  suspendRun,
  testResource,
}) => {
  const run = await suspendRun(requests.refund({ amount: "13.00", currency: "EUR" }));
  await openRunsOf(page, testResource);
  const toggle = threadToggle(page, run.thread);
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await expect(runLink(page, run.runId)).toBeVisible();

  // The list is re-read on focus once it is older than a couple of seconds: focus until it is. Any
  // change in the feed (another test's run, here) makes one read a full one: the next is "unchanged".
  let answer = "";
  await expect(async () => {
    const read = page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/", {
      timeout: 2_000,
    });
    await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange", { bubbles: true })));
    answer = await (await read).text();
    expect(answer).toContain('"unchanged":true');
  }).toPass({ timeout: 30_000 });
  expect(answer).not.toContain(run.runId);
  await expect(runLink(page, run.runId)).toBeVisible();
});
