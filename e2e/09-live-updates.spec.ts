import { expect, requests, test } from "./fixtures.ts";
import { EMPTY_STATE, openRunsOf, runLink, threadToggle, totalLabel } from "./support/runs-page.ts";

test("a run suspended by another process appears on its own, and leaves once decided", async ({
  page,
  suspendRun,
  testResource,
  approveDirectly,
}) => {
  await openRunsOf(page, testResource);
  await expect(page.getByText(EMPTY_STATE)).toBeVisible();
  // A marker in the page's JavaScript realm survives only if the document is never reloaded.
  await page.evaluate(() => ((window as unknown as { __e2eSameDocument?: boolean }).__e2eSameDocument = true));

  // This test process is not the server: the run reaches the console only through the database.
  const run = await suspendRun(requests.refund());

  const toggle = threadToggle(page, run.thread);
  await expect(toggle).toBeVisible({ timeout: 10_000 });
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await expect(runLink(page, run.runId)).toBeVisible();
  await expect(totalLabel(page, 1)).toBeVisible();
  await expect(page.getByText(EMPTY_STATE)).toHaveCount(0);

  // Decided elsewhere: it disappears just as quietly.
  await approveDirectly(run);
  await expect(page.getByText(EMPTY_STATE)).toBeVisible({ timeout: 10_000 });
  await expect(runLink(page, run.runId)).toHaveCount(0);
  expect(
    await page.evaluate(() => (window as unknown as { __e2eSameDocument?: boolean }).__e2eSameDocument),
    "the page was never reloaded",
  ).toBe(true);
});
