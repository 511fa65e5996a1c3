import { getDb } from "../lib/db/client.ts";
import { delegated } from "../lib/mastra/demo/requests.ts";
import { expect, requests, test } from "./fixtures.ts";
import { openRunsOf, runLink, totalLabel } from "./support/runs-page.ts";

test("a supervisor's delegated approval shows its path and is decided through the supervisor", async ({
  page,
  suspendRun,
  isPending,
  databaseUrl,
}) => {
  const order = "ORD-2424";
  const run = await suspendRun({
    agent: "supportDesk",
    text: delegated(requests.refund({ order, amount: "24.00", currency: "EUR" })).text,
  });

  // Listed once (the supervisor's run; the sub-agent's inner run is not a second item), with its path.
  await openRunsOf(page, run.resource);
  await expect(totalLabel(page, 1, 1)).toBeVisible();
  await expect(runLink(page, run.runId)).toHaveCount(1);
  const row = page.locator("tr", { has: runLink(page, run.runId) });
  await expect(row.getByRole("link", { name: "issueRefund", exact: true })).toBeVisible();
  await expect(row.getByLabel("Delegated: support-desk, then refunds, then the tool issueRefund")).toBeVisible();
  await expect(row).toContainText("support-desk→refunds→issueRefund");

  await runLink(page, run.runId).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${run.runId}([?#]|$)`));
  await expect(page.getByText("Waits inside a delegation, continued through support-desk:")).toBeVisible();
  await expect(page.getByLabel("Delegated: support-desk, then refunds, then the tool issueRefund")).toBeVisible();
  await expect(page.getByRole("group", { name: "Arguments of issueRefund" })).toContainText(order);

  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Approved." })).toBeVisible();
  await expect(page.getByText(`The refunds agent answered: Refund re_ord2424 issued: 24 EUR for order ${order}.`)).toBeVisible();

  expect(await isPending(run)).toBe(false);
  // The sub-agent's tool ran once, and nothing of either run is left waiting.
  const db = await getDb(databaseUrl);
  const effects = await db.toolEffect.findMany({ where: { resourceId: { startsWith: run.resource } } });
  expect(effects.map((effect) => [effect.agentId, effect.toolName])).toEqual([["refunds", "issueRefund"]]);
  expect(await db.workflowSnapshot.count({ where: { resourceId: { startsWith: run.resource } } })).toBe(0);
});
