import { apiLogin, demoAccount } from "./support/users.ts";
import { expectNoSidewaysScroll } from "./support/phone.ts";
import { screenshotIfAsked } from "./support/queue-page.ts";
import { expect, requests, test, type SuspendedRun } from "./fixtures.ts";

const AMOUNTS = ["12.50", "18.00", "22.00", "27.00", "31.00", "36.00"];
const HOSTILE = `<img src=x onerror="document.body.dataset.pwned=1"> not this one`;

test("an admin finds a rule suggested from what people decided, sees its backtest, creates it disabled, enables it, and it decides the next call", async ({
  page,
  browser,
  baseURL,
  suspendRun,
  testResource,
  isPending,
  effectsOf,
}) => {
  test.setTimeout(180_000);
  // History: six refunds of this test's customer approved by the demo reviewer through the JSON API, one declined.
  const approved: SuspendedRun[] = [];
  for (const amount of AMOUNTS) approved.push(await suspendRun(requests.refund({ amount })));
  const declined = await suspendRun(requests.refund({ amount: "30.00" }));
  for (const run of approved) {
    const answer = await page.request.post("/api/decisions", {
      data: { action: "approve", runId: run.runId, toolCallId: run.toolCallId, agentId: "refunds" },
    });
    expect(answer.status(), await answer.text()).toBe(200);
  }
  const decline = await page.request.post("/api/decisions", {
    data: { action: "decline", runId: declined.runId, toolCallId: declined.toolCallId, agentId: "refunds", reason: HOSTILE },
  });
  expect(decline.status(), await decline.text()).toBe(200);

  const admin = await browser.newContext();
  await apiLogin(admin, demoAccount("admin"), baseURL!);
  const adminPage = await admin.newPage();
  await adminPage.goto("/admin/rules");
  await adminPage.getByRole("link", { name: "Suggested rules, from what people decided" }).click();
  const section = adminPage.getByRole("region", { name: "Suggested rules" });
  await section.getByLabel("At least this many past calls").fill("5");
  await section.getByLabel("Limit to resources starting with (empty: all)").fill(testResource);
  await section.getByRole("button", { name: "Find suggested rules" }).click();
  // Never wrong (the default): the one decline among them rules the group out.
  await expect(section.getByRole("status")).toContainText("No rule to suggest from 7 calls people decided in the last 30 days.");
  await section.getByLabel("Wrong at most (% of them)").fill("20");
  await section.getByRole("button", { name: "Find suggested rules" }).click();
  await expect(section.getByRole("status")).toContainText("1 rule suggested from 7 calls people decided in the last 30 days.");

  const proposal = section.getByTestId("proposal");
  await expect(proposal).toHaveCount(1);
  await expect(proposal).toContainText(`resource starting with ${testResource}`);
  await expect(proposal).toContainText("amount <= 36");
  const backtest = proposal.getByTestId("proposal-backtest");
  await expect(backtest).toContainText("It matches 7 calls people decided: it would approve 7");
  await expect(backtest).toContainText("1 of the 7 it would have approved or declined was decided the other way.");
  await expect(backtest).toContainText(/Waiting it would have saved: (< 1 min|\d+ min)/);
  // The decline, with who and why: the reason shown as text, never as markup.
  const disagreement = backtest.getByRole("list", { name: "Decided the other way" }).getByRole("listitem");
  await expect(disagreement).toHaveCount(1);
  await expect(disagreement).toContainText(`Declined by ${demoAccount("reviewer").email}`);
  await expect(disagreement).toContainText(HOSTILE);
  await expect(disagreement.locator("img")).toHaveCount(0);
  expect(await adminPage.evaluate(() => document.body.dataset.pwned)).toBeUndefined();
  await expect(disagreement.getByRole("link", { name: "History of this call" })).toHaveAttribute(
    "href",
    `/history?runId=${encodeURIComponent(declined.runId)}`,
  );
  await screenshotIfAsked(adminPage, "suggested-rules");
  // Readable on a phone: nothing wider than the screen.
  await adminPage.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(adminPage, "/admin/rules with a suggested rule");
  await screenshotIfAsked(adminPage, "suggested-rules-phone");
  await adminPage.setViewportSize({ width: 1280, height: 800 });

  const name = (await proposal.locator("p").first().textContent())!;
  await proposal.getByRole("button", { name: "Create disabled" }).click();
  await expect(section.getByRole("status")).toContainText(`Created "${name}", disabled, with its backtest.`);
  // Created: no longer suggested, listed disabled, its backtest kept with version 1.
  await expect(section.getByTestId("proposal")).toHaveCount(0);
  const rule = adminPage.getByTestId("rule").filter({ hasText: name });
  await expect(rule).toContainText("disabled");
  await rule.getByText(/^History \(1 version\)/).click();
  await expect(rule.getByTestId("kept-backtest")).toContainText("It matches 7 calls people decided");
  await expect(rule.getByTestId("kept-backtest")).toContainText(HOSTILE);
  await screenshotIfAsked(adminPage, "suggested-rule-created");

  // Enabling it is the admin's act: Edit, Save enabled.
  await rule.getByRole("button", { name: "Edit" }).click();
  await adminPage.getByRole("button", { name: "Save enabled" }).click();
  await expect(adminPage.getByRole("status").filter({ hasText: `Saved "${name}" (version 2), enabled.` })).toBeVisible();

  // A new refund of this customer within the bound: decided by the rule, never waiting for a person.
  // The disagreement's link: the declined call's history.
  await adminPage.goto(`/history?runId=${encodeURIComponent(declined.runId)}`);
  await expect(adminPage.locator('[data-history-entry="decision"]')).toHaveCount(1);
  await expect(adminPage.locator('[data-history-entry="decision"]')).toContainText(HOSTILE);
  const next = await suspendRun(requests.refund({ amount: "20.00" }));
  await expect.poll(() => isPending(next), { timeout: 30_000 }).toBe(false);
  expect(await effectsOf(next)).toBe(1);
  await adminPage.goto(`/history?runId=${encodeURIComponent(next.runId)}`);
  await expect(
    adminPage.locator('[data-history-entry="decision"]').getByRole("cell", { name: `rule '${name}' (version 2)`, exact: true }),
  ).toBeVisible();

  // Deleted, so that no other spec's call is decided by it.
  await adminPage.goto("/admin/rules");
  await adminPage.getByTestId("rule").filter({ hasText: name }).getByRole("button", { name: "Delete" }).click();
  await expect(adminPage.getByTestId("rule").filter({ hasText: name })).toHaveCount(0);
  await admin.close();
});
