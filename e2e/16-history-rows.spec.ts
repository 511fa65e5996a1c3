import { expect, requests, test } from "./fixtures.ts";

test("the history shows one row per decision with its steps, and a refused attempt on its own naming its call", async ({
  page,
  suspendRun,
  approveInConsole,
}) => {
  const run = await suspendRun(requests.refund());
  const reviewer = "reviewer-with-a-rather-long-address@history-timeline.approvals-console.example";

  // A refused attempt (an unknown field), sent as the signed-in demo reviewer through the JSON API.
  const refused = await page.request.post("/api/decisions", {
    data: { action: "approve", runId: run.runId, toolCallId: run.toolCallId, status: "approved" },
  });
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toMatchObject({ ok: false, error: { code: "invalid_input", message: "unknown field: status" } });
  await approveInConsole(run, reviewer);

  await page.goto(`/history?resourceId=${encodeURIComponent(run.resource)}`);
  const rows = page.locator("[data-history-entry]");
  // Three events (refused, recorded, applied), two rows.
  await expect(rows).toHaveCount(2);
  await expect(page.getByText("2 entries")).toBeVisible();

  const decision = page.locator('[data-history-entry="decision"]');
  const steps = decision.getByRole("list", { name: "What became of this decision" }).getByRole("listitem");
  await expect(steps).toHaveText([/^recorded\s*\d\d:\d\d:\d\d/, /^applied\s*\d\d:\d\d:\d\d/]);
  // The reviewer's address is shown whole, wrapped rather than cut.
  const reviewerCell = decision.getByRole("cell", { name: reviewer, exact: true });
  await expect(reviewerCell).toBeVisible();
  expect(
    await reviewerCell.evaluate(
      (cell) => cell.scrollWidth <= cell.clientWidth && !getComputedStyle(cell).textOverflow.includes("ellipsis"),
    ),
  ).toBe(true);

  // The refused attempt is its own row and names the agent and tool the server knew.
  const attempt = page.locator('[data-history-entry="attempt"]');
  await expect(attempt).toContainText("refused");
  await expect(attempt).toContainText("invalid_input");
  await expect(attempt).toContainText("issueRefund");
  await expect(attempt).toContainText(run.agentId);
  await expect(attempt).not.toContainText("agent not recorded");
  await expect(attempt).toContainText("unknown field: status");
});
