import type { Page } from "@playwright/test";
import { expect, requests, test } from "./fixtures.ts";
import { seriousViolations } from "./support/axe.ts";
import { ADMIN_PAGES, PHONE } from "./support/phone.ts";
import { callDetail, callRow, screenshotIfAsked } from "./support/queue-page.ts";
import { expandAllThreads, openRunsOf, totalLabel, waitForListIdle } from "./support/runs-page.ts";
import { apiLogin, demoAccount } from "./support/users.ts";

// Independent tests, each slow (axe passes over large pages): the two workers share them.
test.describe.configure({ mode: "parallel" });

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

    test("the queue with every kind of row, opened calls, run pages, the history and the profile break no serious accessibility rule", async ({
      page,
      everyKindOfCall,
      testResource,
    }) => {
      // A minute for the overdue call to age, then eleven axe passes over large pages, on two shared cores.
      test.setTimeout(360_000);
      const calls = await everyKindOfCall();

      await openRunsOf(page, testResource);
      // Eight calls in three groups: the thread of two agents, No thread (a run and a workflow step), the rest one each.
      await expect(totalLabel(page, 8)).toBeVisible();
      await waitForListIdle(page);
      await expandAllThreads(page);
      await expect(callRow(page, calls.overdue)).toContainText("Overdue");
      await expect(callRow(page, calls.twoApprovals)).toContainText("1 of 2 approvals (Rita Reviewer)");
      await expect(callRow(page, calls.critical).locator("[data-risk=critical]")).toBeVisible();
      expect(await seriousViolations(page), "the queue").toEqual([]);
      await screenshotIfAsked(page, `${screen}-queue`);

      await callRow(page, calls.secondAgent)
        .getByRole("button", { name: /^Open issueRefund/ })
        .click();
      await expect(callDetail(page, calls.secondAgent).getByRole("region", { name: "Conversation" })).toContainText("Request: full refund");
      await expect(callDetail(page, calls.secondAgent).getByRole("region", { name: "About this tool" })).toBeVisible();
      expect(await seriousViolations(page), "an opened approval call").toEqual([]);
      await screenshotIfAsked(page, `${screen}-call-open`);

      await callRow(page, calls.suspended)
        .getByRole("button", { name: /^Open chooseShippingAddress/ })
        .click();
      await expect(callDetail(page, calls.suspended).getByRole("textbox", { name: "Resume data" })).toBeVisible();
      expect(await seriousViolations(page), "an opened suspend() call").toEqual([]);

      for (const [what, run] of [
        ["a supervisor's run page", calls.delegated],
        ["a suspend() call's run page", calls.suspended],
        ["a two-approver call's run page", calls.twoApprovals],
        ["a workflow step's run page", calls.workflowStep],
      ] as const) {
        await page.goto(`/runs/${run.runId}`);
        await expect(page.getByRole("button", { name: /^(Approve|Resume)$/ }).first()).toBeVisible();
        expect(await seriousViolations(page), what).toEqual([]);
      }
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
