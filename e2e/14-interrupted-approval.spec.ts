import { expect, requests, test } from "./fixtures.ts";
import { openRunsOf } from "./support/runs-page.ts";

test("a call interrupted after its tool ran is flagged, and approving it again needs a confirmation that does not repeat the effect", async ({
  page,
  suspendRun,
  interruptApproval,
  effectsOf,
  isPending,
}) => {
  const request = requests.refund({ amount: "19.90", currency: "EUR" });
  const run = await suspendRun(request);
  await interruptApproval(run);
  expect(await effectsOf(run)).toBe(1);
  expect(await isPending(run)).toBe(true);

  // The queue says it before anyone opens the run.
  await openRunsOf(page, run.resource);
  await expect(page.getByText("May already have run", { exact: true })).toBeVisible();

  await page.getByRole("link", { name: "issueRefund", exact: true }).click();
  await expect(page.getByText("May already have run", { exact: true })).toBeVisible();
  const warning = page.getByRole("alert").filter({ hasText: "This tool may already have run" });
  await expect(warning).toContainText("crash-tester");
  const approve = page.getByRole("button", { name: "Approve", exact: true });
  await expect(approve).toBeDisabled();

  await page.getByLabel("I checked: approving again may run the tool a second time.").check();
  await approve.click();
  await expect(page.getByRole("status").filter({ hasText: "Approved." })).toBeVisible();
  expect(await isPending(run)).toBe(false);
  // The demo tool used the tool call id as its idempotency key: still one refund.
  expect(await effectsOf(run)).toBe(1);
});
