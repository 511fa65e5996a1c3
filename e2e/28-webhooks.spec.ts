import { Webhook } from "standardwebhooks";
import { startWebhookReceiver } from "../tests/helpers/webhook-receiver.ts";
import { getDb } from "../lib/db/client.ts";
import { expect, requests, test } from "./fixtures.ts";
import { demoAccount, loginThroughForm } from "./support/users.ts";

// Webhooks are an admin's: the admin signs in for this spec (the stored session is a reviewer's).
test.use({ storageState: { cookies: [], origins: [] } });

test("an admin adds a webhook, a waiting call arrives signed, and its delivery shows in the log", async ({ page, suspendRun }) => {
  const receiver = await startWebhookReceiver();
  try {
    await loginThroughForm(page, demoAccount("admin"), "/admin/webhooks");
    await expect(page.getByRole("heading", { name: "Webhooks", exact: true })).toBeVisible();
    await page.getByLabel("Endpoint URL").fill(receiver.url);
    await expect(page.getByRole("checkbox", { name: "call.waiting" })).toBeChecked();
    await page.getByRole("button", { name: "Add webhook" }).click();
    const secret = (await page.getByTestId("webhook-secret").textContent())!;
    expect(secret).toMatch(/^whsec_/);
    const endpoint = page.getByRole("region", { name: `Webhook ${receiver.url}` });
    await expect(endpoint).toBeVisible();

    const run = await suspendRun(requests.refund());
    const requestsForRun = async () =>
      receiver.received.filter((request) => (JSON.parse(request.body) as { data: { runId: string } }).data.runId === run.runId);
    await expect.poll(async () => (await requestsForRun()).length, { timeout: 20_000 }).toBe(1);
    const [request] = await requestsForRun();
    expect(new Webhook(secret).verify(request!.body, request!.headers)).toMatchObject({ type: "call.waiting" });

    await page.reload();
    // This event's row (its id is the event cell's title): other specs' waiting calls reach this
    // endpoint too, and a row picked by position can be another event's by the time it is clicked.
    const eventId = request!.headers["webhook-id"]!;
    const delivery = endpoint.getByTestId("webhook-delivery").filter({ has: page.getByTitle(eventId, { exact: true }) });
    await expect(delivery).toContainText("call.waiting");
    await expect(delivery).toContainText("delivered");
    await expect(delivery).toContainText("HTTP 200");

    // Retry sends the same event again.
    const before = receiver.received.length;
    await delivery.getByRole("button", { name: "Retry" }).click();
    // (Other specs' waiting calls may reach this endpoint meanwhile: look for this event among the new requests.)
    const sentAgain = () => receiver.received.slice(before).filter((one) => one.headers["webhook-id"] === eventId);
    await expect.poll(() => sentAgain().length, { timeout: 20_000 }).toBe(1);

    // Disabled, so the other specs' calls are not queued for a receiver that is gone.
    await endpoint.getByRole("button", { name: "Disable" }).click();
    await expect(endpoint.getByText("Disabled", { exact: true })).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test("an admin adds a Slack endpoint in Korean: a waiting call's message arrives in Korean; the card switches it to Chinese", async ({
  page,
  suspendRun,
  workerDatabaseUrl,
}) => {
  const receiver = await startWebhookReceiver();
  try {
    await loginThroughForm(page, demoAccount("admin"), "/admin/webhooks");
    await page.getByLabel("Endpoint URL").fill(receiver.url);
    await page.getByLabel("Slack incoming webhook").check();
    await page.getByLabel("Language of Slack messages").selectOption("ko");
    await page.getByRole("button", { name: "Add webhook" }).click();
    const endpoint = page.getByRole("region", { name: `Webhook ${receiver.url}` });
    await expect(endpoint).toBeVisible();
    const language = endpoint.getByRole("combobox", { name: `Language of the Slack messages sent to ${receiver.url}` });
    await expect(language).toHaveValue("ko");

    const run = await suspendRun(requests.refund());
    type Message = { text: string; blocks: Array<{ type: string; elements?: Array<{ text?: unknown }> }> };
    const messagesForRun = () =>
      receiver.received
        .map((request) => JSON.parse(request.body) as Message)
        .filter((message) => JSON.stringify(message).includes(run.runId));
    await expect.poll(() => messagesForRun().length, { timeout: 20_000 }).toBe(1);
    const [message] = messagesForRun();
    expect(message!.text).toBe("issueRefund 호출이 검토자를 기다립니다");
    const buttons = message!.blocks
      .find((block) => block.type === "actions")!
      .elements!.map((button) => (button.text as { text: string }).text);
    expect(buttons).toEqual(["승인", "거절"]);

    await language.selectOption("zh-TW");
    await expect(endpoint.getByRole("status")).toContainText("Slack messages to this endpoint are now in 繁體中文.");
    const stored = await (await getDb(workerDatabaseUrl)).webhookEndpoint.findFirst({ where: { url: receiver.url } });
    expect(stored?.locale).toBe("zh-TW");

    // Disabled, so the other specs' calls are not queued for a receiver that is gone.
    await endpoint.getByRole("button", { name: "Disable" }).click();
    await expect(endpoint.getByText("Disabled", { exact: true })).toBeVisible();
  } finally {
    await receiver.close();
  }
});
