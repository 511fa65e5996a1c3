import type { Browser, Page } from "@playwright/test";
import { getDb } from "../lib/db/client.ts";
import { decide } from "../lib/decisions/decide.ts";
import { recordCallView } from "../lib/insights/record.ts";
import { expect, requests, test, type SuspendedRun } from "./fixtures.ts";
import { seriousViolations } from "./support/axe.ts";
import { expectNoSidewaysScroll, PHONE } from "./support/phone.ts";
import { screenshotIfAsked } from "./support/queue-page.ts";
import { apiLogin, demoAccount, type Account } from "./support/users.ts";

/**
 * /insights counts what was decided: refund calls under this test's resource, decided through the
 * product's decision path by an account of this test alone, shown to an admin with the figures
 * seeded; a count followed to the history lists exactly its rows; support sees no reviewer's
 * address; the page fits a phone and breaks no serious accessibility rule.
 */

/** Waits until the console has claimed `run`'s call as waiting (its insights row), as it does for every call. */
async function claimedAsWaiting(databaseUrl: string, run: Pick<SuspendedRun, "runId" | "toolCallId">) {
  const db = await getDb(databaseUrl);
  await expect
    .poll(
      async () =>
        (await db.callReview.findUnique({ where: { runId_toolCallId: { runId: run.runId, toolCallId: run.toolCallId } } }))?.waitingSince !=
        null,
      { message: `${run.runId} was not claimed as waiting`, timeout: 30_000 },
    )
    .toBe(true);
}

/**
 * Four refunds under the test's resource: `reviewer` approves one after opening its context, one
 * a moment after opening it (a quick approval), declines one unopened; the fourth keeps waiting.
 */
async function seedDecisions(
  databaseUrl: string,
  suspendRun: (input: { agent: "refunds"; text: string }) => Promise<SuspendedRun>,
  reviewer: string,
) {
  const runs: SuspendedRun[] = [];
  for (const amount of ["21.00", "22.00", "23.00", "24.00"])
    runs.push(await suspendRun({ agent: "refunds", text: requests.refund({ amount }).text }));
  for (const run of runs) await claimedAsWaiting(databaseUrl, run);
  const db = await getDb(databaseUrl);
  const [withContext, quick, declined] = runs as [SuspendedRun, SuspendedRun, SuspendedRun];
  const call = (run: SuspendedRun) => ({ runId: run.runId, toolCallId: run.toolCallId });
  await recordCallView(db, { ...call(withContext), reviewer, context: true });
  await decide({ action: "approve", ...call(withContext) }, { reviewer, databaseUrl });
  await recordCallView(db, { ...call(quick), reviewer, context: false });
  await decide({ action: "approve", ...call(quick) }, { reviewer, databaseUrl });
  await decide({ action: "decline", reason: "not this one", ...call(declined) }, { reviewer, databaseUrl });
  // Counted here from the calls' own rows: those that waited past the review target (a minute in this suite).
  const target = await db.insightTarget.findUniqueOrThrow({ where: { risk: "unrated" } });
  const decided = await db.callReview.findMany({ where: { runId: { in: runs.map((run) => run.runId) }, decidedAt: { not: null } } });
  expect(decided).toHaveLength(3);
  return { overdue: decided.filter((call) => call.decidedAt!.getTime() - call.waitingSince!.getTime() >= target.minutes * 60_000).length };
}

async function signedIn(browser: Browser, baseURL: string, account: Pick<Account, "email" | "password">, options = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] }, ...options });
  await apiLogin(context, account, baseURL);
  return context.newPage();
}

const cells = (page: Page, table: string, row: string) => page.getByTestId(table).locator(`tbody tr${row}`).locator("td, th");

test("an admin reads the figures seeded, follows a reviewer's count to the history, and downloads the CSV", async ({
  browser,
  baseURL,
  databaseUrl,
  suspendRun,
  testResource,
  users,
}) => {
  test.slow();
  const reviewer = await users.create({ role: "reviewer" });
  const { overdue } = await seedDecisions(databaseUrl, suspendRun, reviewer.email);

  const page = await signedIn(browser, baseURL!, demoAccount("admin"));
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Insights" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Insights" })).toBeVisible();

  // Under the test's resource: its calls alone, from their own rows.
  await page.getByLabel("Resource prefix").fill(testResource);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`resourcePrefix=${testResource}`));
  const figure = (name: string) => page.getByTestId("insights-calls").locator(`[data-figure=${name}] dd`);
  for (const [name, value] of Object.entries({
    waited: "4",
    decided: "3",
    person: "3",
    rule: "0",
    suggestion: "0",
    expiry: "0",
    outside: "0",
  }))
    await expect(figure(name), name).toHaveText(value);
  await expect(page.getByText("Under a resource prefix or risk filter the counts do not link to the history")).toBeVisible();
  await expect(figure("decided").getByRole("link")).toHaveCount(0);
  await expect(cells(page, "rates-by-tool", "[data-agent=refunds][data-tool=issueRefund]")).toHaveText([
    "Refunds",
    "issueRefund",
    "3",
    "66.7%",
    "33.3%",
    "0%",
  ]);
  const filteredRow = cells(page, "reviewers", `[data-reviewer="${reviewer.email}"]`);
  await expect(filteredRow.nth(1)).toHaveText("3");
  await expect(filteredRow.nth(3)).toHaveText("66.7%");
  await expect(filteredRow.nth(4)).toHaveText("66.7%");
  await expect(filteredRow.nth(5)).toHaveText("—not counted");
  await expect(page.getByTestId("signals-note")).toContainText("Not counted under a resource filter");
  await expect(page.getByTestId("signals-note")).toContainText("Signals to look at, not verdicts");
  const today = page.getByTestId("days").locator("tbody tr").first().locator("td");
  await expect(today).toHaveText(["4", "3", String(overdue)]);

  // The CSV has the same figures.
  const csvHref = await page.getByRole("link", { name: "Download CSV" }).getAttribute("href");
  expect(csvHref).toContain(`resourcePrefix=${testResource}`);
  const csv = await (await page.request.get(csvHref!)).text();
  expect(csv).toContain("calls,,,,,,waited,4\r\n");
  expect(csv).toContain("calls,,,,,,decidedBy.person,3\r\n");

  expect(await seriousViolations(page), "insights").toEqual([]);
  await screenshotIfAsked(page, "insights-resource");

  // Unfiltered: the reviewer's row counts the signals (the quick approval), and its count links to the history.
  await page.goto("/insights");
  const row = cells(page, "reviewers", `[data-reviewer="${reviewer.email}"]`);
  await expect(row.nth(0)).toHaveText(reviewer.email);
  await expect(row.nth(2)).toHaveText(/sec|min/);
  await expect(row.nth(3)).toHaveText("66.7%");
  await expect(row.nth(4)).toHaveText("66.7%");
  await expect(row.nth(5)).toHaveText("1");
  await expect(row.nth(6)).toHaveText("0");
  await row.nth(1).getByRole("link", { name: "3", exact: true }).click();
  await expect(page).toHaveURL(/\/history\?/);
  const url = new URL(page.url());
  expect(Object.fromEntries(url.searchParams)).toMatchObject({ reviewer: reviewer.email, outcome: "applied" });
  await expect(page.getByText(/^3 entries/)).toBeVisible();
  const entries = page.locator("[data-history-entry]");
  await expect(entries).toHaveCount(3);
  for (const entry of await entries.all()) await expect(entry).toContainText(reviewer.email);
  await page.context().close();
});

test("support sees the figures without any reviewer's address", async ({ browser, baseURL, databaseUrl, suspendRun, users }) => {
  test.slow();
  const reviewer = await users.create({ role: "reviewer" });
  await seedDecisions(databaseUrl, suspendRun, reviewer.email);
  const page = await signedIn(browser, baseURL!, demoAccount("support"));
  // A bad parameter is left out and said why; the page still shows.
  await page.goto("/insights?period=14");
  await expect(page.getByRole("main").getByRole("alert")).toContainText("period=14 was ignored: period must be one of 7, 30, 90");
  const reviewers = page.getByTestId("reviewers");
  await expect(reviewers.locator("tbody tr").first().locator("td").first()).toHaveText(/^Reviewer \d+$/);
  expect(await page.getByRole("main").textContent()).not.toContain("@");
  await expect(reviewers.getByRole("link")).toHaveCount(0);
  // The same as JSON: no names there either.
  const json = await (await page.request.get("/api/insights")).text();
  expect(json).not.toContain(reviewer.email);
  await page.context().close();
});

test.describe("on a phone", () => {
  test.use(PHONE);

  test("the insights page fits the screen, its chart and tables included", async ({ page }) => {
    await page.goto("/insights?period=90");
    await expect(page.getByRole("heading", { level: 1, name: "Insights" })).toBeVisible();
    await expect(page.getByTestId("days-chart")).toBeVisible();
    await expect(page.getByTestId("days").locator("tbody tr")).toHaveCount(90);
    await expectNoSidewaysScroll(page, "/insights");
    await screenshotIfAsked(page, "phone-insights");
  });
});
