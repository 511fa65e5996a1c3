import type { Browser, Page } from "@playwright/test";
import { getDb } from "../lib/db/client.ts";
import { approveAndTrust } from "../lib/rules/trust.ts";
import { expect, requests, test } from "./fixtures.ts";
import { expectNoSidewaysScroll, PHONE } from "./support/phone.ts";
import { callDetail, callRow, screenshotIfAsked } from "./support/queue-page.ts";
import { openRunsOf } from "./support/runs-page.ts";
import { demoAccount, loginThroughForm } from "./support/users.ts";

/** The rules page as the demo admin sees it (the stored session is a reviewer's), in a context of its own. */
async function adminRulesPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await loginThroughForm(page, demoAccount("admin"), "/admin/rules");
  return page;
}

test("a reviewer approves a refund and trusts the same refunds for an hour: the agent's next one is approved by the rule", async ({
  page,
  browser,
  suspendRun,
  testResource,
  isPending,
  effectsOf,
  ruleMatched,
  databaseUrl,
}) => {
  const reviewer = demoAccount("reviewer").email;
  const first = await suspendRun(requests.refund({ amount: "20.00", currency: "EUR" }));
  await page.goto(`/runs/${first.runId}`);
  const trustButton = page.getByRole("button", { name: "Approve and trust…" });
  await expect(trustButton).toHaveAttribute("aria-expanded", "false");
  await trustButton.click();
  await expect(trustButton).toHaveAttribute("aria-expanded", "true");
  const form = page.getByTestId("trust-form");
  // The call's own scalar arguments are offered, none ticked; 15 minutes is chosen until changed.
  const currency = form.getByRole("checkbox", { name: 'currency = "EUR"' });
  await expect(currency).not.toBeChecked();
  await expect(form.getByRole("checkbox", { name: "amount = 20" })).not.toBeChecked();
  await expect(form.getByRole("radio", { name: "15 minutes" })).toBeChecked();
  await form.getByRole("radio", { name: "1 hour" }).check();
  await currency.check();
  await screenshotIfAsked(page, "trust-form");
  await form.getByRole("button", { name: "Approve, and for 1 hour" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Approved." })).toBeVisible({ timeout: 30_000 });
  const name = `trusted: issueRefund for ${testResource}`;
  await expect(page.getByTestId("trusted-note")).toContainText(`rule “${name}” approves the same calls until then`);
  expect(await effectsOf(first)).toBe(1);

  // The agent's next refund on this resource in euros is approved by the rule, without a person.
  const next = await suspendRun(requests.refund({ amount: "35.00", currency: "EUR" }));
  await expect.poll(() => isPending(next), { timeout: 30_000 }).toBe(false);
  expect(await effectsOf(next)).toBe(1);
  // One in dollars is not the same call: it waits.
  const dollars = await suspendRun(requests.refund({ amount: "20.00", currency: "USD" }));
  await ruleMatched(dollars);
  expect(await isPending(dollars)).toBe(true);
  await openRunsOf(page, testResource);
  await expect(callRow(page, dollars)).toBeVisible();
  await expect(callRow(page, next)).toHaveCount(0);
  await page.goto(`/history?resourceId=${encodeURIComponent(testResource)}`);
  const decisions = page.locator('[data-history-entry="decision"]');
  await expect(decisions.getByRole("cell", { name: `rule '${name}' (version 1)`, exact: true })).toHaveCount(1);
  await expect(decisions.filter({ hasText: reviewer })).toContainText("Approved and trusted");

  // The JSON API checks what it is sent: an unknown duration changes nothing.
  const refused = await page.request.post("/api/decisions", {
    data: { action: "approve_and_trust", runId: dollars.runId, toolCallId: dollars.toolCallId, duration: "2h" },
  });
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toMatchObject({ ok: false, error: { code: "invalid_input", message: expect.stringContaining("duration") } });
  // A trust whose hour ended (started an hour and 2 s ago, through the same function): the call is approved, the rule matches nothing more.
  await approveAndTrust(
    { runId: dollars.runId, toolCallId: dollars.toolCallId, duration: "1h", sameArguments: [] },
    { reviewer, timeZone: "UTC", databaseUrl, now: new Date(Date.now() - 3_600_000 - 2_000) },
  );
  const later = await suspendRun(requests.refund({ amount: "20.00", currency: "USD" }));
  await ruleMatched(later);
  expect(await isPending(later)).toBe(true);

  // The admin sees both rules first in the list, who trusted them, and until when (or that one ended).
  const admin = await adminRulesPage(browser);
  const rules = admin.getByTestId("rule").filter({ hasText: testResource });
  await expect(rules).toHaveCount(2);
  await expect(rules.getByTestId("trusted-badge").filter({ hasText: /^Trusted until / })).toContainText(`by ${reviewer}`);
  await expect(rules.getByTestId("trusted-badge").filter({ hasText: /^Ended / })).toContainText(`trusted by ${reviewer}`);
  await expect(admin.getByTestId("rule").first()).toContainText(testResource);
  await screenshotIfAsked(admin, "rules-trusted");
  await admin.context().close();
  const db = await getDb(databaseUrl);
  await db.rule.deleteMany({ where: { resource: testResource } });
});

test.describe("on a phone", () => {
  test.use(PHONE);

  test("approve and trust fits a 390 px screen and is tapped from the queue's row", async ({
    page,
    suspendRun,
    testResource,
    isPending,
    databaseUrl,
  }) => {
    const run = await suspendRun(requests.refund({ amount: "12.00" }));
    await openRunsOf(page, testResource);
    await callRow(page, run)
      .getByRole("button", { name: /^Open issueRefund/ })
      .tap();
    const detail = callDetail(page, run);
    await detail.getByRole("button", { name: "Approve and trust…" }).tap();
    const form = detail.getByTestId("trust-form");
    await form.getByRole("radio", { name: "today (until midnight)" }).tap();
    await form.getByRole("checkbox", { name: /^orderId = / }).tap();
    await expectNoSidewaysScroll(page, "the queue with Approve and trust open");
    await screenshotIfAsked(page, "phone-trust");
    await form.getByRole("button", { name: "Approve, and for today" }).tap();
    await expect(detail.getByTestId("trusted-note")).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => isPending(run), { timeout: 30_000 }).toBe(false);
    const db = await getDb(databaseUrl);
    const [rule] = await db.rule.findMany({ where: { resource: testResource } });
    expect(JSON.parse(rule!.conditions)).toEqual([{ path: "orderId", op: "equals", value: expect.stringMatching(/^ORD-/) }]);
    // "today": the browser's midnight (the demo reviewer chose no zone), within a day.
    expect(rule!.expiresAt!.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
    await db.rule.deleteMany({ where: { resource: testResource } });
  });
});
