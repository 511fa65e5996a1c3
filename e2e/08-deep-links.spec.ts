import { randomUUID } from "node:crypto";
import { expect, requests, test } from "./fixtures.ts";
import {
  agentFilter,
  expandAllThreads,
  openRunsOf,
  pageLabel,
  resourceFilter,
  rowsPerPage,
  runLink,
  totalLabel,
  visibleRunIds,
  waitForListIdle,
} from "./support/runs-page.ts";

const NOT_WAITING = "This run is not waiting anymore";

test("a shared list URL opens with its filters applied", async ({ page, listRuns }) => {
  const customer = "cust_1002";
  const all = await listRuns({ resourceId: customer });
  // The queue pages whole threads (runs without a thread are one group): the customer's few fit on one page.
  const threads = new Set(all.runs.map((run) => run.threadId ?? "")).size;
  expect(all.total).toBeGreaterThan(0);
  expect(threads).toBeLessThanOrEqual(10);

  await page.goto(`/?resourceId=${customer}&perPage=10`);
  await expect(resourceFilter(page)).toHaveValue(customer);
  await expect(rowsPerPage(page)).toHaveValue("10");
  await expect(totalLabel(page, all.total, threads)).toBeVisible();
  await expect(pageLabel(page, 1, 1)).toBeVisible();
  await waitForListIdle(page);
  await expandAllThreads(page);
  const shown = await visibleRunIds(page);
  expect(shown.sort()).toEqual(all.runs.map((run) => run.runId).sort());
});

test("a shared list URL can narrow by agent", async ({ page, suspendRun, testResource }) => {
  const shipping = await suspendRun(requests.shipping());
  const refund = await suspendRun(requests.refund());

  await openRunsOf(page, testResource, { agentId: "shipping" });
  await expect(agentFilter(page)).toHaveValue("shipping");
  await expect(totalLabel(page, 1)).toBeVisible();
  await expandAllThreads(page);
  await expect(runLink(page, shipping.runId)).toBeVisible();
  await expect(runLink(page, refund.runId)).toHaveCount(0);

  // Back to all agents from the select.
  await agentFilter(page).selectOption({ label: "All agents" });
  await expect(totalLabel(page, 2)).toBeVisible();
  await expect(page).not.toHaveURL(/agentId=/);
});

test("a run's URL opens its detail directly", async ({ page, suspendRun }) => {
  const run = await suspendRun(requests.partialRefund({ total: "80.00", currency: "EUR" }));

  await page.goto(`/runs/${run.runId}`);
  await expect(page.getByText(run.runId).first()).toBeVisible();
  await expect(page.getByText(run.thread).first()).toBeVisible();
  await expect(page.getByText(run.resource).first()).toBeVisible();
  await expect(page.getByText("refunds").first()).toBeVisible();
  await expect(page.getByText("settlePartialRefund").first()).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Resume data" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Resume", exact: true })).toBeVisible();
  await expect(page.getByText(NOT_WAITING)).toHaveCount(0);
});

test("a decided run says who decided it and when; an unknown run is a 404", async ({ page, suspendRun, approveInConsole }) => {
  const run = await suspendRun(requests.refund());
  // Decided by another reviewer before this one opens the link.
  await approveInConsole(run, "other-reviewer@e2e.example");

  const decided = await page.goto(`/runs/${run.runId}`);
  expect(decided?.status()).toBe(200);
  await expect(page.getByText(NOT_WAITING)).toBeVisible();
  await expect(page.getByText(/other-reviewer@e2e\.example approved it at /)).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);

  const unknown = await page.goto(`/runs/${randomUUID()}`);
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "No run with this id" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
});

test("a link with bad parameters still opens: the server ignores them and says why", async ({ page, listRuns }) => {
  const customer = "cust_1002";
  const all = await listRuns({ resourceId: customer });

  await page.goto(`/?resourceId=${customer}&page=abc&perPage=7&from=2026-02-30`);
  const alert = page.getByRole("alert").filter({ hasText: "Some parameters in this link are invalid and were ignored" });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("page=abc was ignored: page must be a number");
  await expect(alert).toContainText("perPage=7 was ignored: perPage must be one of 10, 20, 50, 100");
  await expect(alert).toContainText("from=2026-02-30 was ignored: From is not a valid date");
  // The valid filter still applies.
  await expect(resourceFilter(page)).toHaveValue(customer);
  await expect(totalLabel(page, all.total)).toBeVisible();

  // Fixing the link through the UI clears the report.
  await rowsPerPage(page).selectOption("10");
  await expect(page).toHaveURL(/perPage=10/);
  await expect(alert).not.toContainText("perPage=7");
});
