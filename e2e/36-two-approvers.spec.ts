import { getDb } from "../lib/db/client.ts";
import { createRule, deleteRule } from "../lib/rules/store.ts";
import { ruleInputSchema } from "../lib/rules/validations.ts";
import { expect, requests, test } from "./fixtures.ts";
import { callRow, screenshotIfAsked } from "./support/queue-page.ts";
import { openRunsOf } from "./support/runs-page.ts";
import { apiLogin } from "./support/users.ts";

/**
 * Four eyes (issue 25, item 4): a refund a "Require 2 approvals" rule holds. Two reviewers in two
 * browsers: the first approves and sees "1 of 2 approvals (Rita …)", in the queue too; approving
 * again is refused; the second's approval carries it out, once; the history shows both approvals.
 * The rule is made through the product's own code, for this test's resource only.
 */
test("two reviewers in two browsers complete a two-approver call; the first sees 1 of 2 approvals", async ({
  browser,
  baseURL,
  databaseUrl,
  suspendRun,
  testResource,
  isPending,
  effectsOf,
  users,
}) => {
  const db = await getDb(databaseUrl);
  const rule = await createRule(
    db,
    ruleInputSchema.parse({
      name: `four eyes ${testResource.slice(-6)}`,
      enabled: true,
      agentId: "refunds",
      toolName: "issueRefund",
      resource: testResource,
      conditions: [{ path: "amount", op: ">", value: 500 }],
      effect: "require_approvals",
      approvals: 2,
      risk: "high",
    }),
    "e2e-admin@test.example",
  );
  try {
    const run = await suspendRun(requests.refund({ amount: "750.00" }));
    const key = { runId: run.runId, toolCallId: run.toolCallId };
    // The console's events loop claims the new call and records which rule matched it.
    await expect
      .poll(async () => (await db.callRuleMatch.findUnique({ where: { runId_toolCallId: key } }))?.effect, { timeout: 15_000 })
      .toBe("require_approvals");

    const [rita, bob] = await Promise.all(["Rita Levi", "Bob Stone"].map((name) => users.create({ role: "reviewer", name })));
    const [ritaPage, bobPage] = await Promise.all(
      [rita!, bob!].map(async (account) => {
        const context = await browser.newContext({ baseURL });
        await apiLogin(context, account, baseURL!);
        return context.newPage();
      }),
    );

    // Rita approves on the run page: her approval counts, the call still waits.
    await ritaPage!.goto(`/runs/${run.runId}`);
    await expect(ritaPage!.getByText("0 of 2 approvals", { exact: true })).toBeVisible();
    await ritaPage!.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(ritaPage!.getByRole("status").filter({ hasText: "Your approval counts: 1 of 2 approvals (Rita Levi)." })).toBeVisible();
    await screenshotIfAsked(ritaPage!, "two-approvers-first-approval");
    expect(await isPending(run)).toBe(true);
    expect(await effectsOf(run)).toBe(0);

    // Rita once more (a fresh page): refused, nothing changed.
    await ritaPage!.reload();
    await expect(ritaPage!.getByText("1 of 2 approvals (Rita Levi)", { exact: true })).toBeVisible();
    await ritaPage!.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(ritaPage!.locator("main").getByRole("alert").filter({ hasText: "You already approved this call" })).toBeVisible();
    expect(await db.callApproval.count({ where: { runId: run.runId } })).toBe(1);

    // Bob sees the half-done call in the queue, then approves it: the tool runs, once.
    await openRunsOf(bobPage!, testResource);
    await expect(callRow(bobPage!, run).getByText("1 of 2 approvals (Rita Levi)", { exact: true })).toBeVisible();
    await screenshotIfAsked(bobPage!, "two-approvers-half-done");
    await bobPage!.goto(`/runs/${run.runId}`);
    await expect(bobPage!.getByText("1 of 2 approvals (Rita Levi)", { exact: true })).toBeVisible();
    await bobPage!.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(bobPage!.getByRole("status").filter({ hasText: "Approved." })).toBeVisible({ timeout: 30_000 });
    expect(await isPending(run)).toBe(false);
    expect(await effectsOf(run)).toBe(1);

    // The history shows each approval, who and when, then Bob's decision carried out.
    await bobPage!.goto(`/history?resourceId=${encodeURIComponent(testResource)}`);
    const approvals = bobPage!.locator("tr").filter({ hasText: "Approval" });
    await expect(approvals.filter({ hasText: "Approval 1 of 2 by Rita Levi" })).toHaveCount(1);
    await expect(approvals.filter({ hasText: "Approval 2 of 2 by Bob Stone" })).toHaveCount(1);
    await expect(bobPage!.locator('[data-history-entry="decision"]').filter({ hasText: bob!.email })).toHaveCount(1);
    await Promise.all([ritaPage!, bobPage!].map((page) => page.context().close()));
  } finally {
    // Other specs' calls never match it (another resource), but leave nothing enabled behind.
    await deleteRule(db, rule.id, "e2e-admin@test.example");
  }
});
