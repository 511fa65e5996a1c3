import { expect, test } from "./fixtures.ts";
import { callRow, screenshotIfAsked } from "./support/queue-page.ts";
import { EMPTY_STATE, escapeRegExp, openRunsOf, totalLabel } from "./support/runs-page.ts";

test("bulk-approving 10 calls while another reviewer decides one first: 9 applied, 1 reported with who decided it", async ({
  page,
  backlog,
  approveInConsole,
  effectsOf,
  isPending,
  users,
}) => {
  const { resource, runs } = await backlog(10);
  const other = await users.create({ role: "reviewer", name: "Alice Other" });
  await openRunsOf(page, resource);
  await expect(totalLabel(page, 10)).toBeVisible();

  await page.getByRole("checkbox", { name: "Select every approval call on this page" }).check();
  await expect(page.getByText("10 selected", { exact: true })).toBeVisible();
  for (const run of runs) await expect(callRow(page, run).getByRole("checkbox")).toBeChecked();
  await page.getByRole("button", { name: "Approve selected" }).click();
  const dialog = page.getByRole("dialog", { name: "Approve 10 calls: 10 × issueRefund?" });
  await expect(dialog).toBeVisible();

  // While the dialog asks, another reviewer approves one of the ten.
  const taken = runs[3]!;
  await approveInConsole(taken, other.email);
  await dialog.getByRole("button", { name: "Approve 10 calls" }).click();
  await expect(dialog).toBeHidden();

  const summary = page.getByTestId("bulk-summary");
  // "… at Dec 4, 2026, 02:46:36 UTC.": when, in the reader's own date format.
  await expect(summary).toHaveText(new RegExp(`^9 applied, 1 already decided by ${escapeRegExp(other.email)} at .*\\b\\d{4}\\b.+\\.$`));
  const results = page.getByTestId("call-result");
  await expect(results.filter({ hasText: /^✓ Approved — the agent continued/ })).toHaveCount(9);
  await expect(results.filter({ hasText: `Already decided by ${other.email} at ` })).toHaveCount(1);
  await expect(callRow(page, taken).locator("xpath=following-sibling::tr[1]")).toContainText(`Already decided by ${other.email}`);
  // While they stay in place, no thread header still counts them as pending.
  await expect(page.getByText(/^\d+ pending calls?$/)).toHaveCount(0);
  await expect(page.getByText("no pending calls left").first()).toBeVisible();
  await screenshotIfAsked(page, "queue-bulk-result");

  // Then the decided calls leave.
  await expect(page.getByText(EMPTY_STATE)).toBeVisible({ timeout: 15_000 });
  for (const run of runs) {
    expect(await effectsOf(run), run.runId).toBe(1);
    expect(await isPending(run)).toBe(false);
  }
});

test("the page's checkbox leaves input requests out, a thread's checkbox is indeterminate when partly selected", async ({
  page,
  suspendRun,
  testResource,
  newThread,
}) => {
  const thread = newThread();
  const first = await suspendRun({ agent: "refunds", thread });
  const second = await suspendRun({ agent: "outreach", thread });
  await openRunsOf(page, testResource);
  await expect(totalLabel(page, 2)).toBeVisible();

  const threadBox = page.getByRole("checkbox", { name: `Select the shown approval calls of thread ${thread}` });
  await callRow(page, first).getByRole("checkbox").check();
  await expect(threadBox).toHaveJSProperty("indeterminate", true);
  await threadBox.check();
  await expect(callRow(page, second).getByRole("checkbox")).toBeChecked();
  await expect(page.getByText("2 selected", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Clear", exact: true }).click();
  await expect(page.getByText("2 selected", { exact: true })).toHaveCount(0);
  await expect(threadBox).not.toBeChecked();
});
