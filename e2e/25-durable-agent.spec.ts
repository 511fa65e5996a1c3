import { getDb } from "../lib/db/client.ts";
import { durable } from "../lib/mastra/demo/requests.ts";
import { expect, requests, test } from "./fixtures.ts";
import { openRunsOf, runLink, totalLabel } from "./support/runs-page.ts";

/**
 * A durable agent (Mastra's createDurableAgent, the demo's `billing`): its runs are listed with a
 * "Durable agent" badge, approved and resumed in the browser like any other; each tool runs once.
 */
test("a durable agent's approval and input request are decided in the browser, its kind shown", async ({
  page,
  suspendRun,
  isPending,
  databaseUrl,
}) => {
  const order = "ORD-2525";
  const approval = await suspendRun(durable(requests.refund({ order, amount: "25.00", currency: "EUR" })));
  const input = await suspendRun({
    ...durable(requests.partialRefund({ order: "ORD-2526", total: "80.00" })),
    resource: approval.resource,
  });

  // Both listed, each with the badge saying which kind of agent waits, beside the agent's id.
  await openRunsOf(page, approval.resource);
  await expect(totalLabel(page, 2, 2)).toBeVisible();
  for (const run of [approval, input]) {
    const row = page.locator("tr", { has: runLink(page, run.runId) });
    await expect(row).toContainText("Billing (durable)");
    await expect(row.getByText("Durable agent", { exact: true })).toBeVisible();
  }

  // The approval: its arguments, then Approve; the agent's answer once the tool ran.
  await runLink(page, approval.runId).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${approval.runId}([?#]|$)`));
  await expect(page.getByRole("main").getByText("Durable agent", { exact: true })).toBeVisible();
  await expect(page.getByRole("group", { name: "Arguments of issueRefund" })).toContainText(order);
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Approved." })).toBeVisible();
  await expect(page.getByText(`Refund re_ord2525 issued: 25 EUR for order ${order}.`)).toBeVisible();
  expect(await isPending(approval)).toBe(false);

  // The input request: the editor checks the data against the tool's schema, read from the durable
  // run's internal row; valid data resumes it.
  await page.goto(`/runs/${input.runId}`);
  await expect(page.getByRole("main").getByText("Durable agent", { exact: true })).toBeVisible();
  const resumeData = page.getByRole("textbox", { name: "Resume data" });
  const resume = page.getByRole("button", { name: "Resume", exact: true });
  expect(JSON.parse(await resumeData.inputValue())).toEqual({ amount: null });
  await expect(resume).toBeDisabled();
  await resumeData.fill(JSON.stringify({ amount: 30 }));
  await expect(resume).toBeEnabled();
  await resume.click();
  await expect(page.getByRole("status").filter({ hasText: "Resumed." })).toBeVisible();
  await expect(page.getByText("Refunded 30 EUR for order ORD-2526.")).toBeVisible();
  expect(await isPending(input)).toBe(false);

  // Each tool ran once, and nothing of either run (outer or internal row) is left.
  const db = await getDb(databaseUrl);
  const effects = await db.toolEffect.findMany({ where: { resourceId: approval.resource } });
  expect(effects.map((effect) => [effect.agentId, effect.toolName]).sort()).toEqual([
    ["billing", "issueRefund"],
    ["billing", "settlePartialRefund"],
  ]);
  expect(await db.workflowSnapshot.count({ where: { runId: { in: [approval.runId, input.runId] } } })).toBe(0);
});
