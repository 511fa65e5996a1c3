import { finishedThenWaiting } from "../tests/helpers/thread-history.ts";
import { expect, test } from "./fixtures.ts";
import { callDetail, callRow, screenshotIfAsked } from "./support/queue-page.ts";
import { openRunsOf } from "./support/runs-page.ts";

test("a reviewer opens a call and reads, on demand, what was said earlier in its thread, as text", async ({
  page,
  databaseUrl,
  testResource,
  suspendRun,
}) => {
  const hostile = '<img src=x onerror="alert(1)"> <script>alert(2)</script>';
  // The shipping agent (it keeps memory) answered a first request in this thread; a second one waits.
  const history = await finishedThenWaiting(databaseUrl, { resource: testResource, note: hostile });
  const run = history.waiting;
  page.on("dialog", () => {
    throw new Error("A script from the thread ran");
  });

  await openRunsOf(page, testResource);
  await callRow(page, run)
    .getByRole("button", { name: /^Open chooseShippingAddress/ })
    .click();
  const detail = callDetail(page, run);
  // The Conversation is this run's: the first request is not in it.
  await expect(detail.getByRole("region", { name: "Conversation" })).toContainText("Order: ORD-8802");
  await expect(detail.getByRole("region", { name: "Conversation" })).not.toContainText("ORD-8801");
  // Nothing earlier is loaded until asked for.
  await expect(detail.getByRole("region", { name: "Earlier in this thread" })).toHaveCount(0);
  await detail.getByRole("button", { name: "Earlier in this thread" }).click();
  const earlier = detail.getByRole("region", { name: "Earlier in this thread" });
  // The customer's first request, its hostile line shown as text, and what the agent answered.
  await expect(earlier).toContainText("Order: ORD-8801");
  await expect(earlier).toContainText(hostile);
  await expect(earlier).toContainText(history.first.answer);
  await expect(earlier).not.toContainText("ORD-8802");
  await screenshotIfAsked(page, "queue-call-earlier-in-thread");
  expect(await page.locator("img[src=x]").count()).toBe(0);

  // The run page offers the same.
  await page.goto(`/runs/${run.runId}`);
  await page.getByRole("button", { name: "Earlier in this thread" }).click();
  await expect(page.getByRole("region", { name: "Earlier in this thread" })).toContainText(history.first.answer);
  expect(await page.locator("img[src=x]").count()).toBe(0);

  // A refund waiting on that same thread: the refunds agent keeps no memory, so it remembers none of it.
  const refund = await suspendRun({ agent: "refunds", thread: history.thread, resource: testResource });
  await page.goto(`/runs/${refund.runId}`);
  await page.getByRole("button", { name: "Earlier in this thread" }).click();
  const nothing = page.getByRole("region", { name: "Earlier in this thread" });
  await expect(nothing).toContainText("This run's agent keeps no memory");
  await expect(nothing).not.toContainText("ORD-8801");
});
