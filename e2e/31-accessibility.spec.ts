import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { delegated } from "../lib/mastra/demo/requests.ts";
import { expect, requests, test } from "./fixtures.ts";
import { ADMIN_PAGES, PHONE } from "./support/phone.ts";
import { callDetail, callRow, screenshotIfAsked } from "./support/queue-page.ts";
import { openRunsOf } from "./support/runs-page.ts";
import { apiLogin, demoAccount } from "./support/users.ts";

// Independent tests, each slow (axe passes over large pages): the two workers share them.
test.describe.configure({ mode: "parallel" });

/** axe-core's serious and critical findings on the page as it is now, named so a failure says what to fix. */
async function seriousViolations(page: Page) {
  // Only violations are read: axe then skips writing up every node that passes, much of its time.
  const { violations } = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}

/** Whether the focused element shows it: an outline or a ring (box-shadow) of its own. */
function focusShown(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    const shown = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none";
    return { shown, what: `${element.tagName.toLowerCase()} "${(element.textContent ?? "").trim().slice(0, 40)}"` };
  });
}

// Every page on a desktop screen and on a phone (390 × 844, touch).
for (const [screen, use] of [
  ["desktop", {}],
  ["phone", PHONE],
] as const) {
  test.describe(`on a ${screen}`, () => {
    test.use(use);

    test("the queue, an opened call, a run page, the history and the profile break no serious accessibility rule", async ({
      page,
      suspendRun,
      testResource,
    }) => {
      // Five axe passes over large pages, on two shared cores.
      test.slow();
      const plain = await suspendRun(requests.refund({ amount: "12.00", currency: "EUR" }));
      const viaSupervisor = await suspendRun({
        agent: "supportDesk",
        text: delegated(requests.refund({ amount: "13.00", currency: "EUR" })).text,
      });

      await openRunsOf(page, testResource);
      await expect(callRow(page, plain)).toBeVisible();
      expect(await seriousViolations(page), "the queue").toEqual([]);
      await screenshotIfAsked(page, `${screen}-queue`);

      await callRow(page, plain)
        .getByRole("button", { name: /^Open issueRefund/ })
        .click();
      await expect(callDetail(page, plain).getByRole("region", { name: "Conversation" })).toContainText("Request: full refund");
      await expect(callDetail(page, plain).getByRole("region", { name: "About this tool" })).toBeVisible();
      expect(await seriousViolations(page), "an opened call").toEqual([]);
      await screenshotIfAsked(page, `${screen}-call-open`);

      await page.goto(`/runs/${viaSupervisor.runId}`);
      await expect(page.getByRole("region", { name: "Conversation" })).toContainText("Request: full refund");
      expect(await seriousViolations(page), "a supervisor's run page").toEqual([]);
      await screenshotIfAsked(page, `${screen}-run-page`);

      await page.goto("/history");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await seriousViolations(page), "the history").toEqual([]);
      await screenshotIfAsked(page, `${screen}-history`);

      await page.goto("/profile");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await seriousViolations(page), "the profile").toEqual([]);
      await screenshotIfAsked(page, `${screen}-profile`);
    });

    test("the sign-in page and every admin page break no serious accessibility rule", async ({ browser, baseURL }) => {
      test.slow();
      const context = await browser.newContext({ ...use, storageState: { cookies: [], origins: [] } });
      const page = await context.newPage();
      await page.goto("/sign-in");
      await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
      expect(await seriousViolations(page), "sign-in").toEqual([]);
      await screenshotIfAsked(page, `${screen}-sign-in`);

      await apiLogin(context, demoAccount("admin"), baseURL!);
      for (const path of ADMIN_PAGES) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        expect(await seriousViolations(page), path).toEqual([]);
        await screenshotIfAsked(page, `${screen}-${path.slice(1).replace("/", "-")}`);
      }
      await context.close();
    });
  });
}

test("the keyboard's focus is visible on every control of the queue, the run page and the history", async ({
  page,
  suspendRun,
  testResource,
}) => {
  const run = await suspendRun(requests.refund({ amount: "14.00", currency: "EUR" }));
  for (const path of [`/?resourceId=${encodeURIComponent(testResource)}`, `/runs/${run.runId}`, "/history"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const seen = new Set<string>();
    for (let tab = 0; tab < 40; tab++) {
      await page.keyboard.press("Tab");
      const focused = await focusShown(page);
      if (!focused) continue;
      seen.add(focused.what);
      expect(focused.shown, `${path}: the focus on ${focused.what} is not visible`).toBe(true);
    }
    expect(seen.size, `${path}: Tab reached too few controls`).toBeGreaterThan(5);
  }
});

test("a decision's outcome is announced in a live region, in the queue and on the run page", async ({ page, suspendRun, testResource }) => {
  const inQueue = await suspendRun(requests.refund({ amount: "15.00", currency: "EUR" }));
  const onPage = await suspendRun(requests.refund({ amount: "16.00", currency: "EUR" }));
  await openRunsOf(page, testResource);
  const announcer = page.getByTestId("decision-announcer");
  await expect(announcer).toHaveAttribute("role", "status");
  await expect(announcer).toHaveAttribute("aria-live", "polite");
  await expect(announcer).toHaveText("");
  await callRow(page, inQueue)
    .getByRole("button", { name: /^Open issueRefund/ })
    .click();
  await callDetail(page, inQueue).getByRole("button", { name: "Decline", exact: true }).click();
  await expect(announcer).toHaveText("Declined issueRefund");

  await page.goto(`/runs/${onPage.runId}`);
  await expect(announcer).toHaveText("");
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(announcer).toHaveText("Approved issueRefund");
});
