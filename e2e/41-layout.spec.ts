import type { Locator } from "@playwright/test";
import { expect, requests, test } from "./fixtures.ts";
import { PHONE } from "./support/phone.ts";
import { callDetail, callRow, screenshotIfAsked } from "./support/queue-page.ts";
import { openRunsOf } from "./support/runs-page.ts";

/** Whether two boxes share any area. */
function overlap(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

type Using = Pick<Parameters<Parameters<typeof test>[2]>[0], "page" | "suspendRun" | "addRule" | "ruleMatched" | "approveInConsole">;

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box, `${locator} is not on screen`).not.toBeNull();
  return box!;
}

/**
 * What a reviewer reads, seen, copied or heard: badges that stay in their own column, and
 * neighbouring texts that stay separate words (textContent, innerText and what assistive
 * technology reads), on a wide desktop and on a phone.
 */
for (const [screen, use] of [
  ["a 1400 px desktop", { viewport: { width: 1400, height: 900 } }],
  ["a phone", PHONE],
] as const) {
  test.describe(`on ${screen}`, () => {
    test.use(use);

    /** A refund under "Require 2 approvals" rated critical, approved once by the demo reviewer, listed in the queue. */
    async function halfApprovedCall({ page, suspendRun, addRule, ruleMatched, approveInConsole }: Using) {
      await addRule({
        name: "four eyes, critical",
        agentId: "refunds",
        conditions: [{ path: "amount", op: ">", value: 500 }],
        effect: "require_approvals",
        approvals: 2,
        risk: "critical",
      });
      const run = await suspendRun(requests.refund({ amount: "750.00" }));
      await ruleMatched(run);
      await approveInConsole(run, "Rita Reviewer");
      await openRunsOf(page, run.resource);
      const row = callRow(page, run);
      await expect(row.getByText("1 of 2 approvals (Rita Reviewer)", { exact: true })).toBeVisible();
      return { run, row };
    }

    test("a long approvals badge stays in its cell, off the risk badge", async ({
      page,
      suspendRun,
      addRule,
      ruleMatched,
      approveInConsole,
    }) => {
      const { row } = await halfApprovedCall({ page, suspendRun, addRule, ruleMatched, approveInConsole });
      const approvals = row.getByText("1 of 2 approvals (Rita Reviewer)", { exact: true });
      const risk = row.locator("[data-risk=critical]");
      await expect(risk).toBeVisible();
      expect(overlap(await boxOf(approvals), await boxOf(risk)), "the approvals badge overlaps the risk badge").toBe(false);
      const [badge, cell] = [
        await boxOf(approvals),
        await boxOf(row.locator("td").filter({ hasText: "1 of 2 approvals (Rita Reviewer)" })),
      ];
      expect(badge.x + badge.width, "the approvals badge leaves its cell").toBeLessThanOrEqual(cell.x + cell.width + 0.5);
      await screenshotIfAsked(page, `layout-${screen.replaceAll(" ", "-")}-row`);
    });

    test("neighbouring texts of a row and of the conversation read as separate words", async ({
      page,
      suspendRun,
      addRule,
      ruleMatched,
      approveInConsole,
    }) => {
      const { run, row } = await halfApprovedCall({ page, suspendRun, addRule, ruleMatched, approveInConsole });
      // The row read as text (textContent), as copied (innerText) and as heard: word by word.
      for (const useInnerText of [false, true]) {
        await expect(row).toContainText("issueRefund Request:", { useInnerText });
        await expect(row).toContainText("Approval 1 of 2 approvals (Rita Reviewer) Risk: Critical Refunds", { useInnerText });
      }
      await expect(row).toMatchAriaSnapshot(`- 'row /Approval 1 of 2 approvals \\(Rita Reviewer\\) Risk: Critical Refunds/'`);

      // Where the agent made the waiting call, in its conversation.
      await row.getByRole("button", { name: /^Open issueRefund/ }).click();
      const called = callDetail(page, run).locator("[data-pending-call] p").first();
      const sentence = "Called issueRefund this call waits for you (its arguments are with the decision)";
      for (const useInnerText of [false, true]) await expect(called).toHaveText(sentence, { useInnerText });
      await expect(called).toMatchAriaSnapshot(`- paragraph: ${sentence}`);
    });
  });
}

test("with a mouse and keyboard the decline reason says Enter declines (a touch screen does not, e2e/35)", async ({
  page,
  suspendRun,
  testResource,
}) => {
  const run = await suspendRun(requests.refund({ amount: "19.00" }));
  await openRunsOf(page, testResource);
  await callRow(page, run)
    .getByRole("button", { name: /^Open issueRefund/ })
    .click();
  await expect(callDetail(page, run).getByText("Sent with Decline. Enter declines.")).toBeVisible();
  await expect(page.getByText(/^j \/ k to move between calls, Enter to open one/)).toBeVisible();
});
