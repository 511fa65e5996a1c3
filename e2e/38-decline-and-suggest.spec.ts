import { getDb } from "../lib/db/client.ts";
import { expect, requests, test } from "./fixtures.ts";
import { EMPTY_STATE, openRunsOf } from "./support/runs-page.ts";
import { demoAccount } from "./support/users.ts";

// The demo agents follow a suggestion the way a model would (lib/mastra/demo/follow-suggestion.ts):
// the console carries the decline out, the refunds agent calls issueRefund again at once with the
// suggested arguments, and the console's own loop (lib/events-loop.ts) approves that call as suggested.
test("a reviewer declines a refund suggesting a smaller amount, and the agent's call with that amount is approved as suggested", async ({
  page,
  suspendRun,
  isPending,
  databaseUrl,
}) => {
  const reviewer = demoAccount("reviewer").email;
  const run = await suspendRun(requests.refund({ amount: "80.00" }));
  await page.goto(`/runs/${run.runId}`);
  await page.getByRole("textbox", { name: "Reason (optional)" }).fill("Only the damaged item");
  await page.getByRole("button", { name: "Decline and suggest", exact: true }).click();

  const editor = page.getByRole("textbox", { name: "Suggested arguments (JSON)" });
  await expect(editor).toHaveValue(/"amount": 80,/);
  // Arguments the tool's schema refuses are refused by the server, and nothing happens.
  await editor.fill((await editor.inputValue()).replace('"amount": 80,', '"amount": "fifty",'));
  await page.getByRole("button", { name: "Decline and suggest these arguments" }).click();
  await expect(page.getByTestId("suggest-form").getByRole("alert")).toContainText(
    "The suggested arguments do not match what issueRefund expects",
  );
  expect(await isPending(run)).toBe(true);

  await editor.fill((await editor.inputValue()).replace('"amount": "fifty",', '"amount": 50,'));
  await page.getByRole("button", { name: "Decline and suggest these arguments" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Declined." })).toBeVisible();

  // The agent's new call (same run, amount 50) is approved by the suggestion, without a person: the run leaves the queue.
  await expect.poll(() => isPending(run), { timeout: 20_000 }).toBe(false);
  await openRunsOf(page, run.resource);
  await expect(page.getByText(EMPTY_STATE)).toBeVisible();
  const effects = await (await getDb(databaseUrl)).toolEffect.findMany({ where: { resourceId: run.resource } });
  expect(effects.map((effect) => JSON.parse(effect.input).amount)).toEqual([50]);

  await page.goto(`/history?resourceId=${encodeURIComponent(run.resource)}`);
  const decisions = page.locator('[data-history-entry="decision"]');
  await expect(decisions).toHaveCount(2);
  const approved = decisions.filter({ hasText: `suggestion by ${reviewer}` });
  await expect(approved).toContainText("approve");
  await expect(approved).toContainText(`approved as suggested by ${reviewer}`);
  await expect(decisions.filter({ hasText: "Only the damaged item" })).toContainText('"amount":50');
});
