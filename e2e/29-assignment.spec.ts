import { expect, test } from "./fixtures.ts";
import { openRunsOf, runLink, threadIdsOnPage, totalLabel, urlParam, waitForListIdle } from "./support/runs-page.ts";
import { apiLogin } from "./support/users.ts";

/**
 * A reviewer takes a whole thread: its calls are marked hers in the queue and on the run page, a
 * call that starts waiting in it later is hers too, "Assigned to me" (in the URL) lists only them,
 * and another reviewer sees who holds the thread and cannot take it from her.
 */
test("a reviewer assigns a thread to herself and filters Assigned to me", async ({
  page,
  browser,
  baseURL,
  suspendRun,
  newThread,
  testResource,
  users,
}) => {
  const mine = newThread();
  const other = newThread();
  const inMine = [await suspendRun({ agent: "refunds", thread: mine }), await suspendRun({ agent: "outreach", thread: mine })];
  const elsewhere = await suspendRun({ agent: "refunds", thread: other });
  const rita = await users.create({ role: "reviewer", name: "Rita Assignee" });
  const context = await browser.newContext({ baseURL });
  await apiLogin(context, rita, baseURL!);
  const ritaPage = await context.newPage();

  await openRunsOf(ritaPage, testResource);
  await expect(totalLabel(ritaPage, 3, 2)).toBeVisible();
  await waitForListIdle(ritaPage);
  const threadRow = (target: typeof ritaPage, thread: string) =>
    target.getByRole("row").filter({ has: target.getByRole("button", { name: `Collapse thread ${thread}` }) });
  const callRow = (target: typeof ritaPage, runId: string) => target.getByRole("row").filter({ has: runLink(target, runId) });

  await threadRow(ritaPage, mine)
    .getByRole("button", { name: `Assign to me: thread ${mine}` })
    .click();
  await expect(threadRow(ritaPage, mine).getByTestId("assignee-name")).toHaveText("you");
  for (const run of inMine) await expect(callRow(ritaPage, run.runId).getByTestId("row-assignee")).toHaveText("Assigned to you");
  await expect(callRow(ritaPage, elsewhere.runId).getByTestId("row-assignee")).toHaveCount(0);

  await ritaPage.getByLabel("Assigned to me").check();
  await expect(ritaPage).toHaveURL(urlParam("assigned", "me"));
  await expect(totalLabel(ritaPage, 2, 1)).toBeVisible();
  await waitForListIdle(ritaPage);
  expect(await threadIdsOnPage(ritaPage)).toEqual([mine]);
  await expect(runLink(ritaPage, elsewhere.runId)).toHaveCount(0);

  // The thread's later calls are hers as well; the filter is a link like any other.
  const later = await suspendRun({ agent: "refunds", thread: mine });
  await openRunsOf(ritaPage, testResource, { assigned: "me" });
  await expect(totalLabel(ritaPage, 3, 1)).toBeVisible();
  await expect(ritaPage.getByLabel("Assigned to me")).toBeChecked();
  await expect(callRow(ritaPage, later.runId).getByTestId("row-assignee")).toHaveText("Assigned to you");

  await ritaPage.goto(`/runs/${encodeURIComponent(inMine[0]!.runId)}`);
  await expect(ritaPage.getByTestId("assignee")).toContainText("Assigned to you (with its thread)");

  // Another reviewer sees who holds it, has nothing assigned, and cannot take the thread.
  await openRunsOf(page, testResource);
  await expect(totalLabel(page, 4, 2)).toBeVisible();
  await waitForListIdle(page);
  await expect(threadRow(page, mine).getByTestId("assignee-name")).toContainText(rita.email);
  await expect(threadRow(page, mine).getByRole("button", { name: `Assign to me: thread ${mine}` })).toHaveCount(0);
  await expect(threadRow(page, other).getByRole("button", { name: `Assign to me: thread ${other}` })).toBeVisible();
  await page.getByLabel("Assigned to me").check();
  await expect(page.getByText("No pending tool calls match these filters")).toBeVisible();
  await context.close();
});

/** The run page takes one call and gives it back, and shows it after its own re-render. */
test("a reviewer takes a call on its run page and gives it back", async ({ page, suspendRun }) => {
  const run = await suspendRun({ agent: "refunds" });
  await page.goto(`/runs/${encodeURIComponent(run.runId)}`);
  await page.getByRole("button", { name: "Assign to me: issueRefund" }).click();
  await expect(page.getByTestId("assignee")).toContainText("Assigned to you");
  await page.getByRole("button", { name: "Unassign issueRefund" }).click();
  await expect(page.getByTestId("assignee")).toContainText("Unassigned");
});
