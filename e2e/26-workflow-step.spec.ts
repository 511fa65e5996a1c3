import { expect, test } from "./fixtures.ts";
import { callRow } from "./support/queue-page.ts";
import { agentFilter, noThreadToggle, openRunsOf, totalLabel } from "./support/runs-page.ts";
import { getDb } from "../lib/db/client.ts";

/**
 * A plain workflow (not an agent) whose step suspended for a manager: listed in the queue as a
 * workflow run, found with the agent filter's workflow entry, and resumed from its run page with
 * data the step's own schema checks, in the browser and again on the server.
 */
test("a workflow step waiting for a manager is resumed with schema-checked data", async ({ page, startRefundApproval, databaseUrl }) => {
  const run = await startRefundApproval({ orderId: "ORD-WF-1", amount: 990 });

  await openRunsOf(page, run.resource);
  await expect(totalLabel(page, 1, 1)).toBeVisible();
  const toggle = noThreadToggle(page);
  if ((await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
  const row = callRow(page, run);
  await expect(row.getByText("Workflow", { exact: true })).toBeVisible();
  await expect(row.getByText("Input requested", { exact: true })).toBeVisible();
  await expect(row.getByText("Refund approval")).toBeVisible();

  // The agent filter lists workflows too; picking it keeps the run, another agent hides it.
  await agentFilter(page).selectOption({ label: "Refund approval" });
  await expect(page).toHaveURL(/agentId=workflow(%3A|:)refund-approval/);
  await expect(totalLabel(page, 1, 1)).toBeVisible();
  await agentFilter(page).selectOption({ label: "Refunds" });
  await expect(page.getByText("No pending tool calls match these filters")).toBeVisible();

  await page.goto(`/runs/${run.runId}`);
  await expect(page.getByText("ORD-WF-1").first()).toBeVisible();
  const resumeData = page.getByRole("textbox", { name: "Resume data" });
  const resume = page.getByRole("button", { name: "Resume", exact: true });
  const alert = page.getByRole("main").getByRole("alert");
  // The editor is built from the step's resumeSchema, which the console reads from the workflow.
  expect(JSON.parse(await resumeData.inputValue())).toMatchObject({ approved: null });
  await expect(resume).toBeDisabled();

  await resumeData.fill('{"approved": "yes"}');
  await expect(alert).toContainText("approved must be true or false");
  await expect(resume).toBeDisabled();
  await resumeData.fill('{"approved": true, "bonus": 1}');
  await expect(alert).toContainText("bonus");
  await expect(resume).toBeDisabled();

  await resumeData.fill(JSON.stringify({ approved: true, amount: 900, note: "Goodwill, capped at 900" }));
  await expect(alert).toHaveCount(0);
  await resume.click();
  await expect(page.getByRole("status").filter({ hasText: "Resumed." })).toBeVisible();
  await expect(page.getByText("The workflow carried on and finished the run; it has left the pending list.")).toBeVisible();
  await expect(page.getByText("Resumed by you — the workflow continued and finished the run.")).toBeVisible();

  // The refund step ran once, for the amount the manager set.
  const effects = await (await getDb(databaseUrl)).toolEffect.findMany({ where: { toolCallId: `${run.runId}:manager-approval` } });
  expect(effects.map((effect) => JSON.parse(effect.output))).toEqual([
    { orderId: "ORD-WF-1", refunded: true, amount: 900, currency: "EUR" },
  ]);
});
