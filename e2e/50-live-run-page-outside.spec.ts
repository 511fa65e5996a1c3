import type { Page } from "@playwright/test";
import { delegated } from "../lib/mastra/demo/requests.ts";
import { expect, requests, test } from "./fixtures.ts";
import { signedInPage } from "./support/users.ts";

/**
 * A run's page follows its run when the run moves on without the console (issue 45): continued by
 * the agent's own code through Mastra, its open page drops the buttons and says the run is no longer
 * waiting, without a reload. And a delegated call (a supervisor's) decided in one browser shows who
 * approved it in the other's page, as a plain call does (e2e/49).
 */
const STREAM = "/api/events/stream";
type Marked = { __e2eSameDocument?: boolean };

/** Opens the run's page once its live stream is open, marking the document (a reload would lose the mark). */
async function openLive(page: Page, runId: string) {
  const streamOpened = page.waitForResponse((response) => response.url().includes(STREAM) && response.status() === 200);
  await page.goto(`/runs/${runId}`);
  await streamOpened;
  await page.evaluate(() => ((window as unknown as Marked).__e2eSameDocument = true));
}

const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as Marked).__e2eSameDocument);

test("a run continued outside the console: its open page drops the buttons and says it no longer waits, without a reload", async ({
  page,
  suspendRun,
  approveDirectly,
}) => {
  const run = await suspendRun(requests.refund({ amount: "15.00", currency: "EUR" }));
  await openLive(page, run.runId);
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toBeEnabled();
  await expect(page.getByText("One tool call waits for a reviewer")).toBeVisible();

  // The agent's own code approves the call through Mastra: no decision of the console's.
  await approveDirectly(run);

  const told = page.getByTestId("no-longer-waiting");
  await expect(told).toContainText("No longer waiting: the run was continued outside this console", { timeout: 20_000 });
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Decline", exact: true })).toHaveCount(0);
  // The headline says so too, instead of "One tool call waits".
  await expect(page.getByText("One tool call waits for a reviewer")).toHaveCount(0);
  await expect(page.getByText("No longer waiting: the run was continued outside this console")).toHaveCount(2);
  expect(await sameDocument(page), "never reloaded").toBe(true);
});

test("a supervisor's delegated call approved in one browser shows who approved it in the other's page, without a reload", async ({
  browser,
  baseURL,
  suspendRun,
  users,
}) => {
  const run = await suspendRun({ agent: "supportDesk", text: delegated(requests.refund({ order: "ORD-5024", amount: "24.00" })).text });
  const [ada, grace] = await Promise.all(["Ada Lovelace", "Grace Hopper"].map((name) => users.create({ role: "reviewer", name })));
  const [deciding, watching] = (await Promise.all(
    [ada!, grace!].map(async (account) => {
      const page = await signedInPage(browser, baseURL!, account);
      await openLive(page, run.runId);
      await expect(page.getByText("Waits inside a delegation, continued through support-desk:")).toBeVisible();
      return page;
    }),
  )) as [Page, Page];
  await expect(watching.getByRole("button", { name: "Approve", exact: true })).toBeEnabled();

  await deciding.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(deciding.getByRole("status").filter({ hasText: "Approved." })).toBeVisible({ timeout: 30_000 });

  await expect(watching.getByTestId("decided-elsewhere")).toContainText(`Approved by ${ada!.email} at`, { timeout: 20_000 });
  await expect(watching.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
  // The supervisor's run ended with the console's decision: nothing says it went on outside.
  await expect(watching.getByTestId("no-longer-waiting")).toHaveCount(0);
  expect(await sameDocument(watching), "never reloaded").toBe(true);
  // The deciding reviewer's page keeps its own outcome.
  await expect(deciding.getByTestId("decided-elsewhere")).toHaveCount(0);
  await expect(deciding.getByTestId("no-longer-waiting")).toHaveCount(0);
  await Promise.all([deciding, watching].map((page) => page.context().close()));
});
