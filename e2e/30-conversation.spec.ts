import { delegated } from "../lib/mastra/demo/requests.ts";
import { expect, requests, test } from "./fixtures.ts";
import { callDetail, callRow, screenshotIfAsked } from "./support/queue-page.ts";
import { openRunsOf } from "./support/runs-page.ts";

test("a reviewer reads what the customer asked and what the agent did before deciding, in the row and on the run page", async ({
  page,
  suspendRun,
  testResource,
}) => {
  const hostile = '<img src=x onerror="alert(1)"> <script>alert(2)</script>';
  // Numbered, so its end shows only once the whole text does.
  const long = `Details: ${Array.from({ length: 80 }, (_, i) => `note ${i + 1} of 80 on the crushed parcel.`).join(" ")}`;
  const run = await suspendRun(requests.refund({ amount: "31.00", currency: "EUR", reason: `${hostile}\n${long}` }));
  page.on("dialog", () => {
    throw new Error("A script from the conversation ran");
  });

  await openRunsOf(page, testResource);
  // The row says what the agent was asked, one line of it, as text.
  const excerpt = callRow(page, run).locator("[data-request-excerpt]");
  // Cut at what a row shows (80 characters), before the reason's markup, which the conversation below shows as text.
  await expect(excerpt).toHaveText(/^Request: “Request: full refund Order: ORD-\S+ Email: \S+ [^”]*…”$/);
  expect((await excerpt.textContent())!.replace(/^Request: “|”$/g, "")).toHaveLength(80);
  // One line that stays in its own column: cut with an ellipsis, never running under the next one.
  const [line, cell] = await Promise.all([excerpt.boundingBox(), excerpt.locator("xpath=ancestor::td[1]").boundingBox()]);
  expect(line!.height).toBeLessThan(24);
  expect(line!.x + line!.width).toBeLessThanOrEqual(cell!.x + cell!.width);
  await callRow(page, run)
    .getByRole("button", { name: /^Open issueRefund/ })
    .click();
  const conversation = callDetail(page, run).getByRole("region", { name: "Conversation" });
  // The customer's request, as text (the hostile markup shown, never run), folded after its start.
  await expect(conversation.getByText("Request: full refund", { exact: false })).toBeVisible();
  await expect(conversation).toContainText(hostile);
  await expect(conversation).not.toContainText("note 80 of 80");
  await conversation.getByRole("button", { name: "Show more" }).click();
  await expect(conversation).toContainText(long);
  // The agent's words: the call it made, marked as the one waiting.
  await expect(conversation.getByText("this call waits for you", { exact: false })).toBeVisible();
  await expect(conversation.getByRole("group", { name: "Arguments of issueRefund" })).toHaveCount(0);
  // Its instructions, folded until asked for.
  const instructions = conversation.getByText("You handle refund requests for an online shop.", { exact: false });
  await expect(instructions).toBeHidden();
  await conversation.getByText("Instructions", { exact: true }).click();
  await expect(instructions).toBeVisible();
  // What the tool is: its description and each argument's meaning, from the registered tool.
  const about = callDetail(page, run).getByRole("region", { name: "About this tool" });
  await expect(about).toContainText("Refund an order to the customer's original payment method.");
  await expect(about.getByRole("row", { name: /orderId/ })).toContainText("The shop's order number");
  await screenshotIfAsked(page, "queue-call-conversation");
  expect(await page.locator("img[src=x]").count()).toBe(0);

  // The run page shows the same conversation.
  await page.goto(`/runs/${run.runId}`);
  const onPage = page.getByRole("region", { name: "Conversation" });
  await expect(onPage).toContainText("Request: full refund");
  await expect(onPage.getByText("this call waits for you", { exact: false })).toBeVisible();
  await expect(page.getByRole("region", { name: "About this tool" })).toContainText("Why the customer asks, in their words");
  await screenshotIfAsked(page, "run-page-conversation");
});

test("a supervisor's delegated call shows the outer conversation and the prompt it delegated; a workflow step its inputs", async ({
  page,
  suspendRun,
  startRefundApproval,
}) => {
  const delegatedRun = await suspendRun({
    agent: "supportDesk",
    text: delegated(requests.refund({ order: "ORD-3030", amount: "30.00", currency: "EUR" })).text,
  });
  await page.goto(`/runs/${delegatedRun.runId}`);
  const conversation = page.getByRole("region", { name: "Conversation" });
  await expect(conversation).toContainText("Order: ORD-3030");
  // The supervisor's call that handed the request on, with the prompt it gave the sub-agent.
  await expect(conversation.getByText("agent-refunds", { exact: true })).toBeVisible();
  await expect(conversation.getByText("Handed the request to refunds with these words:")).toBeVisible();
  await expect(conversation.getByRole("group", { name: "Arguments of agent-refunds" })).toContainText("Order: ORD-3030");
  await expect(conversation.getByText("this call waits for you", { exact: false })).toBeVisible();
  await expect(page.getByRole("region", { name: "About this tool" })).toContainText("The shop's order number");
  await screenshotIfAsked(page, "run-page-conversation-supervisor");

  const workflowRun = await startRefundApproval({ orderId: "ORD-WF-30", amount: 930 });
  await page.goto(`/runs/${workflowRun.runId}`);
  const inputs = page.getByRole("region", { name: "Conversation" });
  await expect(inputs.getByRole("group", { name: "Workflow input" })).toContainText("ORD-WF-30");
  await expect(inputs.getByRole("group", { name: "Input of step manager-approval" })).toBeVisible();
  await screenshotIfAsked(page, "run-page-conversation-workflow");
});
