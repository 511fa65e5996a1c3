import AxeBuilder from "@axe-core/playwright";
import { getDb } from "../lib/db/client.ts";
import { createRule, deleteRule } from "../lib/rules/store.ts";
import { ruleInputSchema } from "../lib/rules/validations.ts";
import { expect, requests, test, type SuspendedRun } from "./fixtures.ts";
import { openRunsOf, runLink, threadIdsOnPage, totalLabel, urlParam, waitForListIdle } from "./support/runs-page.ts";

// Rules give each call a risk when it starts waiting (the console's events loop evaluates them);
// the queue shows it as a badge, filters by it and orders highest risk first. The rules are made
// through the product's own store and only match this test's resource, so other specs are untouched.
test("calls show their rule's risk, filter by risk from the toolbar and the URL, and order highest risk first", async ({
  page,
  databaseUrl,
  suspendRun,
  testResource,
}) => {
  test.setTimeout(120_000);
  const db = await getDb(databaseUrl);
  const rule = (name: string, risk: string, conditions: object[]) =>
    createRule(
      db,
      ruleInputSchema.parse({
        name: `${name} ${testResource.slice(-6)}`,
        enabled: true,
        agentId: "refunds",
        resource: testResource,
        conditions,
        effect: "ask",
        risk,
      }),
      "e2e-admin@example.com",
    );
  // First match wins: 500 and more is critical, 100 and more high, under 50 low; 50 to 99 no rule.
  const rules = [
    await rule("payouts", "critical", [{ path: "amount", op: ">=", value: 500 }]),
    await rule("large refunds", "high", [{ path: "amount", op: ">=", value: 100 }]),
    await rule("small refunds", "low", [{ path: "amount", op: "<", value: 50 }]),
  ];
  try {
    const refund = (amount: string) => suspendRun({ agent: "refunds", text: requests.refund({ amount }).text });
    const runs: Record<string, SuspendedRun> = {};
    for (const [key, amount] of [
      ["unrated", "70.00"],
      ["highOld", "150.00"],
      ["low", "20.00"],
      ["highNew", "200.00"],
      ["critical", "900.00"],
    ] as const) {
      runs[key] = await refund(amount);
    }
    const rowOf = (key: string) => page.getByRole("row").filter({ has: runLink(page, runs[key]!.runId) });

    await openRunsOf(page, testResource);
    await expect(totalLabel(page, 5, 5)).toBeVisible();
    // The console rates each call when it claims it (once a second): the list refreshes itself.
    await expect(rowOf("critical").locator('[data-risk="critical"]')).toHaveText(/Critical/, { timeout: 30_000 });
    await expect(rowOf("highOld").locator('[data-risk="high"]')).toHaveText(/High/);
    await expect(rowOf("highNew").locator('[data-risk="high"]')).toHaveText(/High/);
    await expect(rowOf("low").locator('[data-risk="low"]')).toHaveText(/Low/);
    await expect(rowOf("unrated")).toContainText("Unrated");
    await expect(rowOf("unrated").locator("[data-risk]")).toHaveCount(0);
    await waitForListIdle(page);
    // Words and colour, each with enough contrast.
    const { violations } = await new AxeBuilder({ page }).include("table").analyze();
    expect(violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((v) => v.id)).toEqual(
      [],
    );

    // The toolbar's risk filter writes risk=high to the URL.
    await page.getByLabel("Risk", { exact: true }).selectOption("high");
    await expect(page).toHaveURL(urlParam("risk", "high"));
    await expect(totalLabel(page, 2, 2)).toBeVisible();
    await waitForListIdle(page);
    expect(await threadIdsOnPage(page)).toEqual([runs.highOld!.thread, runs.highNew!.thread]);

    // A shared link opens the same view, several risks too.
    await openRunsOf(page, testResource, { risk: "high" });
    await expect(totalLabel(page, 2, 2)).toBeVisible();
    await expect(page.getByLabel("Risk", { exact: true })).toHaveValue("high");
    await openRunsOf(page, testResource, { risk: "critical,low" });
    await expect(totalLabel(page, 2, 2)).toBeVisible();
    await waitForListIdle(page);
    expect(new Set(await threadIdsOnPage(page))).toEqual(new Set([runs.critical!.thread, runs.low!.thread]));
    // An unknown risk is dropped, with a note; the rest of the link still applies.
    await openRunsOf(page, testResource, { risk: "severe" });
    await expect(page.getByText(/risk=severe was ignored/)).toBeVisible();
    await expect(totalLabel(page, 5, 5)).toBeVisible();

    // Highest risk first, then longest waiting; calls without a risk last.
    await openRunsOf(page, testResource);
    await page.getByLabel("Order").selectOption("risk");
    await expect(page).toHaveURL(urlParam("sort", "risk"));
    await waitForListIdle(page);
    await expect
      .poll(() => threadIdsOnPage(page))
      .toEqual([runs.critical!.thread, runs.highOld!.thread, runs.highNew!.thread, runs.low!.thread, runs.unrated!.thread]);
  } finally {
    for (const created of rules) await deleteRule(db, created.id, "e2e-admin@example.com");
  }
});
