import { expect, requests, test } from "./fixtures.ts";
import { callDetail, callRow, screenshotIfAsked } from "./support/queue-page.ts";
import { openRunsOf, totalLabel } from "./support/runs-page.ts";

test("a reviewer approves, declines with a reason and resumes from the table, without opening a run page", async ({
  page,
  suspendRun,
  testResource,
  effectsOf,
  isPending,
}) => {
  const approved = await suspendRun(requests.refund({ amount: "21.00", currency: "EUR", reason: '<img src=x onerror="alert(1)">' }));
  const declined = await suspendRun(requests.refund({ amount: "22.00", currency: "EUR" }));
  const shipping = requests.shipping();
  const resumed = await suspendRun({ ...shipping, resource: testResource });
  const work = shipping.addresses.find((address) => address.label === "Work")!;
  const urls: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) urls.push(frame.url());
  });
  page.on("dialog", () => {
    throw new Error("A script from the arguments ran");
  });

  await openRunsOf(page, testResource);
  await expect(totalLabel(page, 3)).toBeVisible();
  // Deep links stay.
  await expect(callRow(page, approved).getByRole("link", { name: "issueRefund", exact: true })).toHaveAttribute(
    "href",
    `/runs/${approved.runId}`,
  );

  // Approve: the arguments (hostile text, shown as text) and the buttons, in the row.
  await callRow(page, approved)
    .getByRole("button", { name: /^Open issueRefund/ })
    .click();
  const approvedDetail = callDetail(page, approved);
  await expect(approvedDetail.getByRole("group", { name: "Arguments of issueRefund" })).toContainText('<img src=x onerror=\\"alert(1)\\">');
  await screenshotIfAsked(page, "queue-call-open");
  await approvedDetail.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(approvedDetail.getByRole("status")).toContainText("Approved — the agent continued and finished the run.");
  await expect(callRow(page, approved)).toHaveCount(0);
  await expect(totalLabel(page, 2)).toBeVisible();
  expect(await effectsOf(approved)).toBe(1);
  expect(await isPending(approved)).toBe(false);

  // Decline with a reason.
  await callRow(page, declined)
    .getByRole("button", { name: /^Open issueRefund/ })
    .click();
  const declinedDetail = callDetail(page, declined);
  await declinedDetail.getByRole("textbox", { name: "Reason (optional)" }).fill("Customer already refunded by bank");
  await declinedDetail.getByRole("button", { name: "Decline", exact: true }).click();
  await expect(declinedDetail.getByRole("status")).toContainText("Declined — the agent continued and finished the run.");
  await expect(callRow(page, declined)).toHaveCount(0);
  expect(await effectsOf(declined)).toBe(0);
  expect(await isPending(declined)).toBe(false);

  // Resume with data checked against the tool's schema.
  await callRow(page, resumed)
    .getByRole("button", { name: /^Open chooseShippingAddress/ })
    .click();
  const resumedDetail = callDetail(page, resumed);
  await expect(resumedDetail.getByRole("group", { name: "Suspend payload of chooseShippingAddress" })).toContainText(work.id);
  const resume = resumedDetail.getByRole("button", { name: "Resume", exact: true });
  await expect(resume).toBeDisabled();
  await screenshotIfAsked(page, "queue-resume-editor");
  await resumedDetail
    .getByRole("group", { name: "Suggestions for addressId" })
    .getByRole("button", { name: `${work.id} (${work.label})` })
    .click();
  await resume.click();
  await expect(resumedDetail.getByRole("status")).toContainText("Resumed — the agent continued and finished the run.");
  await expect(callRow(page, resumed)).toHaveCount(0);
  expect(await effectsOf(resumed)).toBe(1);
  expect(await isPending(resumed)).toBe(false);

  await expect(page.getByText("No pending tool calls match these filters")).toBeVisible();
  expect(urls.filter((url) => url.includes("/runs/"))).toEqual([]);
  expect(new URL(page.url()).pathname).toBe("/");
});

test("a call somebody else decided first says who and when in its row, then leaves", async ({
  page,
  suspendRun,
  approveInConsole,
  effectsOf,
}) => {
  const run = await suspendRun(requests.refund({ amount: "23.00", currency: "EUR" }));
  // The page's clock stops while grace decides: the list's 3-second refresh would otherwise race
  // the click below on a busy machine and take the row away before this reviewer acts.
  await page.clock.install();
  await openRunsOf(page, run.resource);
  await callRow(page, run)
    .getByRole("button", { name: /^Open issueRefund/ })
    .click();
  const detail = callDetail(page, run);
  await expect(detail.getByRole("button", { name: "Approve", exact: true })).toBeEnabled();
  await page.clock.pauseAt(Date.now() + 1_000);
  await approveInConsole(run, "grace@e2e.example");

  await detail.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(detail.getByRole("alert")).toContainText(/Already decided by grace@e2e\.example at .*\b\d{4}\b/);
  await page.clock.resume();
  await expect(callRow(page, run)).toHaveCount(0);
  expect(await effectsOf(run)).toBe(1);
});
