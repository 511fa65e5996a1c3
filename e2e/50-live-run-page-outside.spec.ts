import type { Page } from "@playwright/test";
import { expect, requests, test } from "./fixtures.ts";

/**
 * A run's page follows its run when the run moves on without the console (issue 45): continued by
 * the agent's own code through Mastra, its open page drops the buttons and says the run is no longer
 * waiting, without a reload.
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
