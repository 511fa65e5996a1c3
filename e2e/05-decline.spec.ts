import { expect, requests, test } from "./fixtures.ts";
import { EMPTY_STATE, openRunsOf, runLink, totalLabel } from "./support/runs-page.ts";

test("a reviewer declines a refund with a reason and the agent reports it", async ({ page, suspendRun, isPending }) => {
  const reason = "Customer already refunded by bank";
  const run = await suspendRun(requests.refund({ amount: "18.00", currency: "GBP" }));

  await openRunsOf(page, run.resource);
  await expect(totalLabel(page, 1)).toBeVisible();
  await page.getByRole("link", { name: "issueRefund", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${run.runId}([?#]|$)`));

  await page.getByRole("textbox", { name: "Reason (optional)" }).fill(reason);
  await page.getByRole("button", { name: "Decline", exact: true }).click();

  await expect(page.getByRole("status").filter({ hasText: "Declined." })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Agent's answer" })).toBeVisible();
  await expect(page.getByText(`I did not go ahead with issueRefund: ${reason}`)).toBeVisible();
  expect(await isPending(run)).toBe(false);

  await page.getByRole("link", { name: "Back to pending runs" }).click();
  await expect(runLink(page, run.runId)).toHaveCount(0);
  await openRunsOf(page, run.resource);
  await expect(page.getByText(EMPTY_STATE)).toBeVisible();
});
