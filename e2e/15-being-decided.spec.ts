import { expect, requests, test } from "./fixtures.ts";
import { openRunsOf } from "./support/runs-page.ts";

test("a decision in flight shows who is deciding, in the list and on the run page, with the buttons disabled", async ({
  page,
  suspendRun,
  holdDecision,
  effectsOf,
}) => {
  const run = await suspendRun(requests.refund({ amount: "12.00", currency: "EUR" }));
  // Another reviewer's console recorded an approval and is (as far as anyone can tell) carrying it out.
  await holdDecision(run);

  await openRunsOf(page, run.resource);
  await expect(page.getByText("Being decided by crash-tester", { exact: true })).toBeVisible();

  await page.getByRole("link", { name: "issueRefund", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "crash-tester is approving this call" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Decline", exact: true })).toBeDisabled();
  expect(await effectsOf(run)).toBe(0);
});
