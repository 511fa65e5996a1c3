import { expect, requests, test } from "./fixtures.ts";
import { EMPTY_STATE, openRunsOf, runLink, totalLabel } from "./support/runs-page.ts";

test("a reviewer approves a refund and the agent carries it out", async ({ page, suspendRun, isPending, listRuns }) => {
  const request = requests.refund({ amount: "42.50", currency: "EUR", reason: 'customer wrote "arrived broken"' });
  const order = /Order: (\S+)/.exec(request.text)![1]!;
  const run = await suspendRun(request);

  await openRunsOf(page, run.resource);
  await expect(totalLabel(page, 1)).toBeVisible();
  const link = page.getByRole("link", { name: "issueRefund", exact: true });
  await expect(link).toHaveAttribute("href", new RegExp(`/runs/${run.runId}([?#]|$)`));
  await expect(page.getByText("Approval", { exact: true }).first()).toBeVisible();
  await link.click();

  await expect(page).toHaveURL(new RegExp(`/runs/${run.runId}([?#]|$)`));
  await expect(page.getByText(run.runId).first()).toBeVisible();
  await expect(page.getByText(run.thread).first()).toBeVisible();
  await expect(page.getByText(run.resource).first()).toBeVisible();
  await expect(page.getByText(order).first()).toBeVisible(); // the model's arguments, as JSON
  // Strings read as JSON writes them: the quotes inside a value are escaped, so it reads unambiguously.
  const args = page.getByRole("group", { name: "Arguments of issueRefund" });
  await expect(args).toContainText('"customer wrote \\"arrived broken\\""');
  const headline = page.getByText("One tool call waits for a reviewer");
  await expect(headline).toBeVisible();

  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Approved." })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Agent's answer" })).toBeVisible();
  // The heading follows the call: it no longer says the call waits.
  await expect(page.getByText("Approved by you — the agent continued and finished the run.")).toBeVisible();
  await expect(headline).toHaveCount(0);
  const refundId = `re_${order.toLowerCase().replace(/[^a-z0-9]/g, "")}`;
  await expect(page.getByText(`Refund ${refundId} issued: 42.5 EUR for order ${order}.`)).toBeVisible();

  // The decision happened on the server: the run is no longer waiting.
  expect(await isPending(run)).toBe(false);
  expect((await listRuns({ resourceId: run.resource })).total).toBe(0);

  await page.getByRole("link", { name: "Back to pending runs" }).click();
  await expect(page).toHaveURL(/\/(\?.*)?$/);
  await expect(runLink(page, run.runId)).toHaveCount(0);
  await openRunsOf(page, run.resource);
  await expect(page.getByText(EMPTY_STATE)).toBeVisible();
  await expect(runLink(page, run.runId)).toHaveCount(0);
});
