import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { delegated } from "../lib/mastra/demo/requests.ts";
import { expect, requests, test } from "./fixtures.ts";
import { callDetail, callRow } from "./support/queue-page.ts";
import { openRunsOf } from "./support/runs-page.ts";

/** axe-core's serious and critical findings on the page as it is now, named so a failure says what to fix. */
async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}

test("the queue, an opened call, a run page and the history break no serious accessibility rule", async ({
  page,
  suspendRun,
  testResource,
}) => {
  const plain = await suspendRun(requests.refund({ amount: "12.00", currency: "EUR" }));
  const viaSupervisor = await suspendRun({
    agent: "supportDesk",
    text: delegated(requests.refund({ amount: "13.00", currency: "EUR" })).text,
  });

  await openRunsOf(page, testResource);
  await expect(callRow(page, plain)).toBeVisible();
  expect(await seriousViolations(page), "the queue").toEqual([]);

  await callRow(page, plain)
    .getByRole("button", { name: /^Open issueRefund/ })
    .click();
  await expect(callDetail(page, plain).getByRole("region", { name: "Conversation" })).toContainText("Request: full refund");
  await expect(callDetail(page, plain).getByRole("region", { name: "About this tool" })).toBeVisible();
  expect(await seriousViolations(page), "an opened call").toEqual([]);

  await page.goto(`/runs/${viaSupervisor.runId}`);
  await expect(page.getByRole("region", { name: "Conversation" })).toContainText("Request: full refund");
  expect(await seriousViolations(page), "a supervisor's run page").toEqual([]);

  await page.goto("/history");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await seriousViolations(page), "the history").toEqual([]);
});

test("the sign-in page breaks no serious accessibility rule", async ({ browser }) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  expect(await seriousViolations(page), "sign-in").toEqual([]);
  await context.close();
});
