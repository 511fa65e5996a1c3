import { getDb } from "../lib/db/client.ts";
import { expect, requests, test } from "./fixtures.ts";
import { apiLogin } from "./support/users.ts";

/**
 * One run, two calls the model made in one step (two refunds at once), two reviewers in two
 * browsers. Mastra 1.71 carries out a step's calls in order: the second call is shown from the
 * start, its buttons disabled with the reason, and becomes decidable once the first is decided, in
 * the other reviewer's open page too, without a reload.
 */
test("two parallel calls of one run are decided by two reviewers, the second once the first is decided", async ({
  browser,
  baseURL,
  suspendRun,
  databaseUrl,
  users,
  listRuns,
}) => {
  const run = await suspendRun(
    requests.severalRefunds({
      orders: [
        { order: "ORD-7701", amount: "12.00", currency: "EUR" },
        { order: "ORD-7702", amount: "30.00", currency: "EUR" },
      ],
    }),
  );
  const accounts = await Promise.all(["Ada Lovelace", "Grace Hopper"].map((name) => users.create({ role: "reviewer", name })));
  const [ada, grace] = await Promise.all(
    accounts.map(async (account) => {
      const context = await browser.newContext({ baseURL });
      await apiLogin(context, account, baseURL!);
      const page = await context.newPage();
      await page.goto(`/runs/${run.runId}`);
      // A marker in the page's JavaScript realm survives only if the document is never reloaded.
      await page.evaluate(() => ((window as unknown as { __e2eSameDocument?: boolean }).__e2eSameDocument = true));
      return page;
    }),
  );

  // Both see both calls: the first decidable, the second queued behind it, saying why.
  const pendingCard = (page: NonNullable<typeof ada>) => page.locator("main section").filter({ hasText: run.toolCallId }).first();
  for (const page of [ada!, grace!]) {
    await expect(pendingCard(page).getByRole("button", { name: "Approve", exact: true })).toBeEnabled();
    const queued = page.getByTestId("queued-call");
    await expect(queued).toHaveCount(1);
    await expect(queued.getByRole("group", { name: "Arguments of issueRefund" })).toContainText("ORD-7702");
    await expect(queued.getByRole("button", { name: "Approve", exact: true })).toBeDisabled();
    await expect(queued.getByRole("button", { name: "Decline", exact: true })).toBeDisabled();
    await expect(queued).toContainText(
      `Not decidable yet: the agent carries out the calls of one step in order and waits on issueRefund (${run.toolCallId}) first.`,
    );
  }
  const second = ((await ada!.getByTestId("queued-call").locator(".font-mono.text-xs").textContent()) ?? "").trim();
  expect(second).toMatch(/^call_/);

  // Ada approves the first call: the run stops again, on the second.
  await pendingCard(ada!).getByRole("button", { name: "Approve", exact: true }).click();
  await expect(ada!.getByText("The agent carried on and stopped again: it waits for another decision on this run.")).toBeVisible();
  expect((await listRuns({ resourceId: run.resource })).runs.map((r) => r.toolCalls.map((call) => call.toolCallId))).toEqual([[second]]);

  // Grace's page follows on its own (its live stream): the second call becomes decidable there
  // without a reload, and she approves it.
  await expect(grace!.getByTestId("queued-call")).toHaveCount(0, { timeout: 20_000 });
  const secondCard = grace!.locator("main section").filter({ hasText: second }).first();
  await expect(secondCard.getByRole("group", { name: "Arguments of issueRefund" })).toContainText("ORD-7702");
  await secondCard.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(grace!.getByText("Approved by you — the agent continued and finished the run.")).toBeVisible();
  expect(await grace!.evaluate(() => (window as unknown as { __e2eSameDocument?: boolean }).__e2eSameDocument), "never reloaded").toBe(
    true,
  );
  // Ada's page kept her own answer: it offers the next call rather than taking her card away.
  await expect(ada!.getByText("The agent carried on and stopped again: it waits for another decision on this run.")).toBeVisible();

  // Each tool ran once; the run is gone; the history names each reviewer on their call.
  const db = await getDb(databaseUrl);
  for (const toolCallId of [run.toolCallId, second]) expect(await db.toolEffect.count({ where: { toolCallId } })).toBe(1);
  expect((await listRuns({ resourceId: run.resource })).total).toBe(0);
  const audit = await db.auditEvent.findMany({ where: { runId: run.runId }, orderBy: { id: "asc" } });
  expect(audit.map((event) => [event.reviewer, event.toolCallId, event.outcome])).toEqual([
    [accounts[0]!.email, run.toolCallId, "recorded"],
    [accounts[0]!.email, run.toolCallId, "applied"],
    [accounts[1]!.email, second, "recorded"],
    [accounts[1]!.email, second, "applied"],
  ]);
  await Promise.all([ada!, grace!].map((page) => page.context().close()));
});
