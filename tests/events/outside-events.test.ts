/**
 * `call.decided` for calls decided outside the console, on SQLite and PostgreSQL, delivered to real
 * HTTP receivers: a call approved through the agent itself (not the console) is announced once,
 * with `decidedBy: "outside"`, in the transaction that records it in the history, signed like every
 * other event, however many console instances read the departure at once; the console's own
 * decisions say `decidedBy: "console"`; a Slack endpoint is told where it was decided, and never
 * an action nobody saw.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { OUTSIDE_REVIEWER, recordOutsideDecisions } from "../../lib/decisions/outside.ts";
import { readAnswer } from "../../lib/mastra/demo/run-until-waiting.ts";
import { requests } from "../../lib/mastra/demo/requests.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { createEndpoint, deleteEndpoint, listEndpoints } from "../../lib/webhooks/endpoints.ts";
import { deliverDueWebhooks } from "../../lib/webhooks/worker.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

type Delivered = { type: string; timestamp: string; data: Record<string, unknown> };

describe.each(["sqlite", "postgres"] as const)(
  "call.decided for decisions made outside the console on %s",
  { timeout: 120_000 },
  (kind) => {
    const database = useTestDatabase(kind, { asDefault: true });
    const receivers: WebhookReceiver[] = [];
    const previous = { allow: process.env.WEBHOOKS_ALLOW_PRIVATE, url: process.env.CONSOLE_URL };
    beforeAll(() => {
      process.env.WEBHOOKS_ALLOW_PRIVATE = "1";
      process.env.CONSOLE_URL = "https://approvals.example.com/";
    });
    afterEach(async () => {
      for (const endpoint of await listEndpoints(database.url)) await deleteEndpoint(endpoint.id, database.url);
      await Promise.all(receivers.splice(0).map((started) => started.close()));
    });
    afterAll(() => {
      process.env.WEBHOOKS_ALLOW_PRIVATE = previous.allow;
      process.env.CONSOLE_URL = previous.url;
    });

    async function endpoint(slack = false) {
      const hooks = await startWebhookReceiver();
      receivers.push(hooks);
      const { secret } = await createEndpoint(
        { url: hooks.url, eventTypes: ["call.decided"], slack, createdBy: "admin@test" },
        database.url,
      );
      return { hooks, secret };
    }

    /** What the team's own code does: the agent's approveToolCall, in a Mastra instance of its own. */
    async function approveOutside(ref: { runId: string; toolCallId: string }) {
      const outside = await createConsoleMastra(database.url);
      await readAnswer(await outside.getAgent("refunds").approveToolCall(ref));
    }

    it("announces a call approved through the agent once, signed, with decidedBy outside, however many instances look at once", async () => {
      const { hooks, secret } = await endpoint();
      const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-9301"));
      await approveOutside(run.ref);

      // Three console instances' loops reading the same departure at the same moment.
      const counts = await Promise.all([1, 2, 3].map(() => recordOutsideDecisions(database.url)));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
      expect(await recordOutsideDecisions(database.url)).toBe(0);
      const db = await getDb(database.url);
      expect(await db.outboxEvent.count({ where: { type: "call.decided" } })).toBe(1);

      expect(await deliverDueWebhooks({ databaseUrl: database.url })).toBe(1);
      const [request] = await hooks.waitFor(1);
      const event = new Webhook(secret).verify(request!.body, request!.headers) as Delivered;
      const entry = await db.auditEvent.findFirstOrThrow({ where: { runId: run.runId, outcome: "decided-outside" } });
      expect(event.type).toBe("call.decided");
      expect(event.data).toEqual({
        runId: run.runId,
        toolCallId: run.ref.toolCallId,
        toolName: "issueRefund",
        agentId: "refunds",
        threadId: run.thread,
        resourceId: run.resource,
        decisionId: null,
        reviewer: OUTSIDE_REVIEWER,
        action: null,
        reason: null,
        state: "applied",
        answer: null,
        error: null,
        decidedAt: entry.at.toISOString(),
        decidedBy: "outside",
        runEnded: entry.message!.includes("the run ended"),
      });
      expect(request!.headers["webhook-id"]).toMatch(/^evt_/);
      expect(() => new Webhook(secret).verify(request!.body.replace("outside", "console"), request!.headers)).toThrow();

      // Nothing else comes later.
      expect(await deliverDueWebhooks({ databaseUrl: database.url, now: new Date(Date.now() + 3_600_000) })).toBe(0);
      expect(hooks.received).toHaveLength(1);
    });

    it("a run decided partly in the console, partly outside: decidedBy console, then outside", async () => {
      const { hooks } = await endpoint();
      const orders = [
        { order: "ORD-9311", amount: "12.00", currency: "EUR" },
        { order: "ORD-9312", amount: "30.00", currency: "EUR" },
      ];
      const run = await suspendDemoRun(database.url, "refunds", requests.severalRefunds({ orders }).text);
      await decide({ action: "approve", ...run.ref }, { reviewer: "rita@test.example", databaseUrl: database.url });
      const db = await getDb(database.url);
      const next = await db.workflowSnapshot.findFirstOrThrow({ where: { runId: run.runId, status: "suspended", agentId: { not: null } } });
      const nextCall = (JSON.parse(next.toolCalls ?? "[]") as Array<{ toolCallId: string }>)[0]!.toolCallId;
      expect(nextCall).not.toBe(run.ref.toolCallId);
      await approveOutside({ runId: run.runId, toolCallId: nextCall });
      // The console's own decision left a departure too: it is forgotten, not announced again.
      expect(await recordOutsideDecisions(database.url)).toBe(1);

      expect(await deliverDueWebhooks({ databaseUrl: database.url })).toBe(2);
      const events = (await hooks.waitFor(2)).map((request) => JSON.parse(request.body) as Delivered);
      expect(
        events
          .map((event) => [event.data.toolCallId, event.data.decidedBy, event.data.reviewer, event.data.action, event.data.runEnded])
          .sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
      ).toEqual([
        [run.ref.toolCallId, "console", "rita@test.example", "approve", undefined],
        [nextCall, "outside", OUTSIDE_REVIEWER, null, expect.any(Boolean)],
      ]);
    });

    it("tells a Slack endpoint the call was decided outside the console, with no action or value it does not know", async () => {
      const { hooks } = await endpoint(true);
      const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-9321"));
      await approveOutside(run.ref);
      expect(await recordOutsideDecisions(database.url)).toBe(1);
      await deliverDueWebhooks({ databaseUrl: database.url });
      const [request] = await hooks.waitFor(1);
      const message = JSON.parse(request!.body) as { text: string; blocks: unknown[] };
      expect(message.text).toMatch(
        /^issueRefund was decided outside the console \(the run (ended|moved on)\); what was decided is not known here$/,
      );
      const all = JSON.stringify(message);
      expect(all).toContain(`<https://approvals.example.com/runs/${encodeURIComponent(run.runId)}|`);
      expect(all).toContain(run.resource);
      expect(all).not.toMatch(/undefined|null|NaN/);
    });
  },
);
