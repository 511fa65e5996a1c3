import { expect, requests, test } from "./fixtures.ts";
import { callDetail, callRow } from "./support/queue-page.ts";
import { noThreadToggle, openRunsOf, totalLabel } from "./support/runs-page.ts";

/**
 * An agent used without a memory thread (its resource only): its run is listed in the queue under
 * "No thread", found by its resource, selectable with the group's checkbox and decided in place.
 */
test("a run without a thread is listed under No thread, filtered by its resource and decided from the queue", async ({
  page,
  suspendRun,
  testResource,
  effectsOf,
  isPending,
}) => {
  const run = await suspendRun({ ...requests.refund({ amount: "17.00", currency: "EUR" }), thread: null });

  await openRunsOf(page, testResource);
  await expect(totalLabel(page, 1, 1)).toBeVisible();
  const toggle = noThreadToggle(page);
  await expect(toggle).toHaveText("No thread");
  if ((await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
  await expect(page.getByRole("button", { name: "Collapse the runs with no thread", exact: true })).toBeVisible();
  await expect(page.getByText("(no thread)")).toHaveCount(0);

  // The group's checkbox selects its approval calls, like a thread's.
  const groupBox = page.getByRole("checkbox", { name: "Select the shown approval calls of the runs with no thread" });
  await groupBox.check();
  await expect(callRow(page, run).getByRole("checkbox")).toBeChecked();
  await expect(page.getByText("1 selected", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Clear", exact: true }).click();
  await expect(groupBox).not.toBeChecked();

  await callRow(page, run)
    .getByRole("button", { name: /^Open issueRefund/ })
    .click();
  const detail = callDetail(page, run);
  await detail.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(detail.getByRole("status")).toContainText("Approved — the agent continued and finished the run.");
  await expect(callRow(page, run)).toHaveCount(0);
  expect(await effectsOf(run)).toBe(1);
  expect(await isPending(run)).toBe(false);
});
