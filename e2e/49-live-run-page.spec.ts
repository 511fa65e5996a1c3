import type { Page } from "@playwright/test";
import { expect, requests, test } from "./fixtures.ts";
import { signedInPage } from "./support/users.ts";

/**
 * A run's page is live too (issue 45): two reviewers on the same run's page see that the other has
 * its call open, and when one approves, the other's page says who approved it and when, its buttons
 * gone, without a reload.
 */
test("two reviewers on one run's page see each other there; one approves and the other's page says so without a reload", async ({
  browser,
  baseURL,
  suspendRun,
  users,
}) => {
  const run = await suspendRun(requests.refund({ amount: "14.00", currency: "EUR" }));
  const [ada, grace] = await Promise.all(["Ada Lovelace", "Grace Hopper"].map((name) => users.create({ role: "reviewer", name })));
  const [deciding, watching] = (await Promise.all(
    [ada!, grace!].map(async (account) => {
      const page = await signedInPage(browser, baseURL!, account);
      const streamOpened = page.waitForResponse((response) => response.url().includes("/api/events/stream") && response.status() === 200);
      await page.goto(`/runs/${run.runId}`);
      await streamOpened;
      return page;
    }),
  )) as [Page, Page];

  await expect(watching.getByText("Open by Ada Lovelace")).toBeVisible();
  await expect(deciding.getByText("Open by Grace Hopper")).toBeVisible();
  // A marker in the page's JavaScript realm survives only if the document is never reloaded.
  await watching.evaluate(() => ((window as unknown as { __e2eSameDocument?: boolean }).__e2eSameDocument = true));
  await expect(watching.getByRole("button", { name: "Approve", exact: true })).toBeEnabled();

  await deciding.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(deciding.getByRole("status").filter({ hasText: "Approved." })).toBeVisible();

  const told = watching.getByTestId("decided-elsewhere");
  await expect(told).toContainText(`Approved by ${ada!.email} at`, { timeout: 15_000 });
  await expect(watching.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
  // The headline says so too.
  await expect(watching.getByText(`Approved by ${ada!.email} at`).first()).toBeVisible();
  expect(await watching.evaluate(() => (window as unknown as { __e2eSameDocument?: boolean }).__e2eSameDocument), "never reloaded").toBe(
    true,
  );
  // The deciding reviewer's own page keeps its own outcome, not a colleague's sentence.
  await expect(deciding.getByTestId("decided-elsewhere")).toHaveCount(0);
  await Promise.all([deciding, watching].map((page) => page.context().close()));
});
