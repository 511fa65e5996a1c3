/**
 * Webhook deliveries on SQLite and PostgreSQL, in this process, to real HTTP receivers: a demo
 * agent's suspended call arrives signed (checked with the standardwebhooks library's own verifier);
 * a failing receiver gets the same event once per retry, with every attempt in the log; a Slack
 * endpoint gets Block Kit; private addresses are refused and redirects never followed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { getDb } from "../../lib/db/client.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { checkEndpointUrl } from "../../lib/webhooks/address.ts";
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpoints } from "../../lib/webhooks/endpoints.ts";
import { OUTBOX_KEPT_MS, pruneOutbox } from "../../lib/webhooks/retention.ts";
import { deliverDueWebhooks, retryDelivery } from "../../lib/webhooks/worker.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { startWebhookReceiver, type ReceiverAnswer, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

const HOUR = 3_600_000;

describe.each(["sqlite", "postgres"] as const)("webhooks on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  const receivers: WebhookReceiver[] = [];
  const receiver = async (...answers: ReceiverAnswer[]) => {
    const started = await startWebhookReceiver(answers);
    receivers.push(started);
    return started;
  };
  const previous = { allow: process.env.WEBHOOKS_ALLOW_PRIVATE, url: process.env.CONSOLE_URL };
  beforeAll(() => {
    process.env.WEBHOOKS_ALLOW_PRIVATE = "1";
    process.env.CONSOLE_URL = "https://approvals.example.com/";
  });
  afterEach(async () => {
    for (const endpoint of await listEndpoints(database.url)) await deleteEndpoint(endpoint.id, database.url);
    await Promise.all(receivers.splice(0).map((started) => started.close()));
    process.env.WEBHOOKS_ALLOW_PRIVATE = "1";
  });
  afterAll(() => {
    process.env.WEBHOOKS_ALLOW_PRIVATE = previous.allow;
    process.env.CONSOLE_URL = previous.url;
  });

  /** A demo refund suspended and announced, as the console's loop would. */
  async function suspendAndAnnounce(order: string) {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest(order));
    await recordWaitingCalls(database.url);
    return run;
  }

  it("delivers a suspended call as a signed call.waiting that the library's verifier accepts", async () => {
    const hooks = await receiver();
    const { secret } = await createEndpoint(
      { url: hooks.url, eventTypes: ["call.waiting"], slack: false, createdBy: "admin@test" },
      database.url,
    );
    const run = await suspendAndAnnounce("ORD-9001");
    expect(await deliverDueWebhooks({ databaseUrl: database.url })).toBe(1);

    const [request] = await hooks.waitFor(1);
    const verified = new Webhook(secret).verify(request!.body, request!.headers) as { type: string; data: Record<string, unknown> };
    expect(verified.type).toBe("call.waiting");
    expect(verified.data).toMatchObject({ runId: run.runId, toolCallId: run.ref.toolCallId, agentId: "refunds", resourceId: run.resource });
    expect(request!.headers["webhook-id"]).toMatch(/^evt_/);
    // A tampered body fails the same check.
    expect(() => new Webhook(secret).verify(request!.body.replace("refunds", "payouts"), request!.headers)).toThrow();
  });

  it("retries a failing receiver with backoff: the same event once per attempt, three attempts logged", async () => {
    const hooks = await receiver(500, 503);
    const { id, secret } = await createEndpoint(
      { url: hooks.url, eventTypes: ["call.waiting"], slack: false, createdBy: "admin@test" },
      database.url,
    );
    await suspendAndAnnounce("ORD-9002");
    const start = Date.now();
    expect(await deliverDueWebhooks({ databaseUrl: database.url, now: new Date(start) })).toBe(1);
    // Not due again yet: the backoff holds it back.
    expect(await deliverDueWebhooks({ databaseUrl: database.url, now: new Date(start + 1_000) })).toBe(0);
    expect(await deliverDueWebhooks({ databaseUrl: database.url, now: new Date(start + HOUR) })).toBe(1);
    expect(await deliverDueWebhooks({ databaseUrl: database.url, now: new Date(start + 2 * HOUR) })).toBe(1);
    expect(await deliverDueWebhooks({ databaseUrl: database.url, now: new Date(start + 3 * HOUR) })).toBe(0);

    expect(hooks.received).toHaveLength(3);
    expect(new Set(hooks.received.map((request) => request.headers["webhook-id"])).size).toBe(1);
    for (const request of hooks.received) expect(() => new Webhook(secret).verify(request.body, request.headers)).not.toThrow();
    const [delivery] = await listDeliveries(id, database.url);
    expect(delivery).toMatchObject({ state: "delivered", attempts: 3, eventType: "call.waiting" });
    expect(delivery!.attemptLog.map((attempt) => [attempt.ok, attempt.responseCode])).toEqual([
      [false, 500],
      [false, 503],
      [true, 200],
    ]);
    for (const attempt of delivery!.attemptLog) expect(attempt.durationMs).toBeGreaterThanOrEqual(0);

    // An admin's Retry sends it once more, now.
    expect(await retryDelivery(delivery!.id, database.url)).toBe(true);
    expect(await deliverDueWebhooks({ databaseUrl: database.url })).toBe(1);
    expect(hooks.received).toHaveLength(4);
    expect((await listDeliveries(id, database.url))[0]!.attemptLog).toHaveLength(4);
  });

  it("posts Block Kit to a Slack endpoint: mrkdwn section and context blocks, a link to the run, Approve and Decline", async () => {
    const slack = await receiver();
    await createEndpoint({ url: slack.url, eventTypes: ["call.waiting"], slack: true, createdBy: "admin@test" }, database.url);
    const run = await suspendAndAnnounce("ORD-9003");
    await deliverDueWebhooks({ databaseUrl: database.url });
    const [request] = await slack.waitFor(1);
    expect(request!.headers["webhook-signature"]).toBeUndefined();

    const message = JSON.parse(request!.body) as { text: unknown; blocks: Array<Record<string, unknown>> };
    expect(typeof message.text).toBe("string");
    expect(Array.isArray(message.blocks)).toBe(true);
    expect(message.blocks.length).toBeGreaterThan(0);
    expect(message.blocks.length).toBeLessThanOrEqual(50); // Slack's limit per message
    const texts: string[] = [];
    const isMrkdwn = (text: unknown) => {
      const { type, text: value } = text as { type?: unknown; text?: unknown };
      expect(type).toBe("mrkdwn");
      expect(typeof value).toBe("string");
      expect((value as string).length).toBeLessThanOrEqual(3000);
      texts.push(value as string);
    };
    // An approval call gets the buttons (lib/slack/blocks.ts), naming the call and nothing else.
    expect(message.blocks.at(-1)).toEqual({
      type: "actions",
      block_id: "approvals_decision",
      elements: ["approve", "decline"].map((action) => ({
        type: "button",
        action_id: `approvals_${action}`,
        style: action === "approve" ? "primary" : "danger",
        text: { type: "plain_text", text: action === "approve" ? "Approve" : "Decline" },
        value: JSON.stringify(run.ref),
      })),
    });
    for (const block of message.blocks.slice(0, -1)) {
      expect(["section", "context"]).toContain(block.type);
      if (block.type === "section") {
        isMrkdwn(block.text);
        for (const field of (block.fields as unknown[] | undefined) ?? []) isMrkdwn(field);
        expect(((block.fields as unknown[] | undefined) ?? []).length).toBeLessThanOrEqual(10);
      } else {
        expect(Array.isArray(block.elements)).toBe(true);
        for (const element of block.elements as unknown[]) isMrkdwn(element);
      }
    }
    const all = texts.join("\n");
    expect(all).toContain(`<https://approvals.example.com/runs/${encodeURIComponent(run.runId)}|`);
    expect(all).toContain("issueRefund");
    expect(all).toContain("refunds");
    expect(all).toContain(run.resource);
    expect(all).toMatch(/<!date\^\d+\^/);
  });

  it("refuses a private address without WEBHOOKS_ALLOW_PRIVATE, when saved and when delivering", async () => {
    const hooks = await receiver();
    delete process.env.WEBHOOKS_ALLOW_PRIVATE;
    const problemOf = async (url: string) => (await checkEndpointUrl(url)).problem;
    expect(await problemOf(hooks.url)).toMatch(/private or local address/);
    expect(await problemOf("http://localhost:3599/")).toMatch(/private or local address/);
    expect(await problemOf("http://[::1]:3599/")).toMatch(/private or local address/);
    expect(await problemOf("http://169.254.169.254/latest/meta-data")).toMatch(/private or local address/);
    expect(await problemOf("ftp://example.com/")).toMatch(/http/);
    // A tab inside the host is dropped by the URL parser: the check refuses the text, not the address it would read.
    expect(await problemOf("http://169.254.1\t69.254/")).toMatch(/^url contains a control character/);

    // An endpoint saved while private addresses were allowed is still refused once they are not.
    const { id } = await createEndpoint(
      { url: hooks.url, eventTypes: ["call.waiting"], slack: false, createdBy: "admin@test" },
      database.url,
    );
    await suspendAndAnnounce("ORD-9004");
    expect(await deliverDueWebhooks({ databaseUrl: database.url })).toBe(1);
    expect(hooks.received).toHaveLength(0);
    const [delivery] = await listDeliveries(id, database.url);
    expect(delivery!.attemptLog[0]).toMatchObject({ ok: false, responseCode: null });
    expect(delivery!.attemptLog[0]!.error).toMatch(/private or local address/);
  });

  it("stores an endpoint's URL normalised, and refuses one with control characters or invalid text", async () => {
    const hooks = await receiver();
    const db = await getDb(database.url);
    const create = (url: string) =>
      createEndpoint({ url, eventTypes: ["call.waiting"], slack: false, createdBy: "admin@test" }, database.url);
    for (const url of [
      `${hooks.url}\r\nX-Injected: 1`,
      `${hooks.url}/a\u0000b`,
      `${hooks.url}/\ud800`,
      hooks.url.replace("127.0", "127.\t0"),
    ]) {
      await expect(create(url)).rejects.toMatchObject({ code: "invalid_input", message: expect.stringMatching(/^url contains/) });
    }
    expect(await db.webhookEndpoint.count()).toBe(0);
    // What the URL parser would have made of it is what is stored, and what deliveries go to.
    const { id } = await create(hooks.url.replace("/hooks", "/HOOKS/../hooks/caf\u00e9"));
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id } })).url).toBe(`${hooks.url}/caf%C3%A9`);
  });

  it("never follows a redirect: a 3xx is a failed attempt, and the address it names gets nothing", async () => {
    const inside = await receiver();
    const redirecting = await receiver({ redirectTo: inside.url }, { redirectTo: "http://169.254.169.254/" });
    const { id } = await createEndpoint(
      { url: redirecting.url, eventTypes: ["call.waiting"], slack: false, createdBy: "admin@test" },
      database.url,
    );
    await suspendAndAnnounce("ORD-9005");
    await deliverDueWebhooks({ databaseUrl: database.url });
    await deliverDueWebhooks({ databaseUrl: database.url, now: new Date(Date.now() + HOUR) });
    expect(redirecting.received).toHaveLength(2);
    expect(inside.received).toHaveLength(0);
    const [delivery] = await listDeliveries(id, database.url);
    expect(delivery!.state).toBe("pending");
    expect(delivery!.attemptLog.map((attempt) => [attempt.ok, attempt.responseCode])).toEqual([
      [false, 302],
      [false, 302],
    ]);
    expect(delivery!.attemptLog[0]!.error).toMatch(/Redirect \(302\) not followed/);
  });

  it("two workers racing over the same due deliveries send each once (the lease claim)", async () => {
    const hooks = await receiver();
    await createEndpoint({ url: hooks.url, eventTypes: ["call.waiting"], slack: false, createdBy: "admin@test" }, database.url);
    for (const order of ["ORD-9101", "ORD-9102", "ORD-9103"]) await suspendAndAnnounce(order);
    const sent = await Promise.all([deliverDueWebhooks({ databaseUrl: database.url }), deliverDueWebhooks({ databaseUrl: database.url })]);
    expect(sent[0] + sent[1]).toBe(3);
    expect(hooks.received).toHaveLength(3);
    expect(new Set(hooks.received.map((request) => request.headers["webhook-id"])).size).toBe(3);
  });

  it("prunes events past the retention with their log, but never one still being retried", async () => {
    const hooks = await receiver(500);
    const { id } = await createEndpoint(
      { url: hooks.url, eventTypes: ["call.waiting"], slack: false, createdBy: "admin@test" },
      database.url,
    );
    await suspendAndAnnounce("ORD-9201");
    await deliverDueWebhooks({ databaseUrl: database.url });
    const later = new Date(Date.now() + OUTBOX_KEPT_MS + HOUR);
    const db = await getDb(database.url);
    const events = await db.outboxEvent.count();
    // Still pending (failed once): kept, so its retries go on.
    expect(await pruneOutbox({ databaseUrl: database.url, now: later })).toBe(events - 1);
    expect(await listDeliveries(id, database.url)).toHaveLength(1);
    await deliverDueWebhooks({ databaseUrl: database.url, now: later });
    expect(await pruneOutbox({ databaseUrl: database.url, now: later })).toBe(1);
    expect(await listDeliveries(id, database.url)).toHaveLength(0);
    expect(await db.webhookAttempt.count()).toBe(0);
  });

  it("queues events only for enabled endpoints subscribed to their type", async () => {
    const hooks = await receiver();
    await createEndpoint({ url: hooks.url, eventTypes: ["call.decided"], slack: false, createdBy: "admin@test" }, database.url);
    await suspendAndAnnounce("ORD-9006");
    expect(await deliverDueWebhooks({ databaseUrl: database.url })).toBe(0);
    expect(await (await getDb(database.url)).webhookDelivery.count()).toBe(0);
  });
});
