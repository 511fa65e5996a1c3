import { expect, test } from "./fixtures.ts";
import { openRunsOf, runLink, threadIdsOnPage, totalLabel, urlParam, waitForListIdle } from "./support/runs-page.ts";

// The suite's console runs with REVIEW_SLA_MINUTES=1 (playwright.config.ts): calls older than a
// minute are overdue. This spec waits for that minute to pass; nothing is faked.
test("calls past the review target are marked overdue in words, per call and per thread, and overdue=1 lists only those", async ({
  page,
  suspendRun,
  testResource,
  newThread,
}) => {
  test.setTimeout(180_000);
  const mixed = newThread();
  const fresh = newThread();
  const old = [await suspendRun({ agent: "refunds", thread: mixed }), await suspendRun({ agent: "outreach", thread: mixed })];
  await new Promise((resolve) => setTimeout(resolve, 62_000));
  const recent = [await suspendRun({ agent: "refunds", thread: mixed }), await suspendRun({ agent: "refunds", thread: fresh })];

  await openRunsOf(page, testResource);
  await expect(totalLabel(page, 4, 2)).toBeVisible();
  await waitForListIdle(page);
  const rowOf = (runId: string) => page.getByRole("row").filter({ has: runLink(page, runId) });
  for (const run of old) await expect(rowOf(run.runId)).toContainText("Overdue");
  for (const run of recent) await expect(rowOf(run.runId)).not.toContainText("Overdue");
  const threadRow = (thread: string) =>
    page.getByRole("row").filter({ has: page.getByRole("button", { name: `Collapse thread ${thread}` }) });
  await expect(threadRow(mixed)).toContainText("2 overdue");
  await expect(threadRow(fresh)).not.toContainText("overdue");
  // The thread whose oldest call waits longest comes first.
  expect(await threadIdsOnPage(page)).toEqual([mixed, fresh]);

  await page.getByLabel(/Only overdue/).check();
  await expect(page).toHaveURL(urlParam("overdue", 1));
  await expect(totalLabel(page, 2, 1)).toBeVisible();
  await waitForListIdle(page);
  expect(await threadIdsOnPage(page)).toEqual([mixed]);
  for (const run of old) await expect(runLink(page, run.runId)).toBeVisible();
  for (const run of recent) await expect(runLink(page, run.runId)).toHaveCount(0);
  await expect(threadRow(mixed)).toContainText("all overdue");

  // The filter is in the URL like the others: a shared link opens the same view.
  await page.goto(`/?resourceId=${encodeURIComponent(testResource)}&overdue=1`);
  await expect(totalLabel(page, 2, 1)).toBeVisible();
  await expect(page.getByLabel(/Only overdue/)).toBeChecked();
});
