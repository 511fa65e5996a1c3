import { getDb } from "../lib/db/client.ts";
import { expect, requests, test } from "./fixtures.ts";
import { apiLogin } from "./support/users.ts";

/**
 * Two reviewers, two browsers, one tool call, the same instant (cal.com's booking race, for
 * approvals): exactly one decision wins, the tool runs once, the other reviewer is told who won.
 */
test("two reviewers approve the same call at once: one wins, the other is told who decided", async ({
  browser,
  baseURL,
  suspendRun,
  databaseUrl,
  users,
}) => {
  const run = await suspendRun(requests.refund({ amount: "99.00", currency: "EUR" }));
  const accounts = await Promise.all(["Ada Lovelace", "Grace Hopper"].map((name) => users.create({ role: "reviewer", name })));
  const reviewers = accounts.map((account) => account.email);
  const pages = await Promise.all(
    accounts.map(async (account) => {
      const context = await browser.newContext({ baseURL });
      await apiLogin(context, account, baseURL!);
      const page = await context.newPage();
      await page.goto(`/runs/${run.runId}`);
      await expect(page.getByRole("button", { name: "Approve", exact: true })).toBeEnabled();
      return page;
    }),
  );

  await Promise.all(pages.map((page) => page.getByRole("button", { name: "Approve", exact: true }).click()));

  const outcomes = await Promise.all(
    pages.map(async (page) => {
      const won = page.getByRole("status").filter({ hasText: "Approved." });
      const lost = page.locator("main").getByRole("alert").filter({ hasText: "This call was already decided" });
      await expect(won.or(lost)).toBeVisible();
      return (await won.isVisible()) ? "won" : ((await lost.textContent()) ?? "");
    }),
  );

  const winnerIndex = outcomes.indexOf("won");
  expect(winnerIndex, `outcomes: ${JSON.stringify(outcomes)}`).toBeGreaterThanOrEqual(0);
  const loser = outcomes[1 - winnerIndex]!;
  expect(loser).toContain(`${reviewers[winnerIndex]} approved it at `);
  expect(loser).toContain("Yours was recorded in the history and not carried out.");
  // Both headings stop saying the call waits: the winner's names them, the loser's names the winner.
  await expect(pages[winnerIndex]!.getByText("Approved by you — the agent continued and finished the run.")).toBeVisible();
  await expect(
    pages[1 - winnerIndex]!.getByText(new RegExp(`^Approved by ${reviewers[winnerIndex]!.replace(/[.]/g, "\\.")} at .*\\b\\d{4}\\b`)),
  ).toBeVisible();
  for (const page of pages) await expect(page.getByText("One tool call waits for a reviewer")).toHaveCount(0);

  const db = await getDb(databaseUrl);
  expect(await db.toolEffect.count({ where: { toolCallId: run.toolCallId } })).toBe(1);
  const audit = await db.auditEvent.findMany({ where: { runId: run.runId }, orderBy: { id: "asc" } });
  expect(audit.map((event) => [event.reviewer, event.outcome]).sort()).toEqual(
    [
      [reviewers[winnerIndex], "recorded"],
      [reviewers[winnerIndex], "applied"],
      [reviewers[1 - winnerIndex], "conflict"],
    ].sort(),
  );
  await Promise.all(pages.map((page) => page.context().close()));
});
