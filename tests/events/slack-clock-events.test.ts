/**
 * The Slack preset's words for the events about calls that still wait or expired: how long overdue,
 * when it expires, whether an expiry only marked the call. (No database: slackMessage is pure.)
 */
import { describe, expect, it } from "vitest";
import type { EventPayload } from "../../lib/events/outbox.ts";
import { SLACK_ARGUMENTS_MAX_LENGTH, slackMessage } from "../../lib/webhooks/slack.ts";

const call = { runId: "run-1", toolCallId: "call_1", toolName: "issueRefund", agentId: "refunds", threadId: "t-1", resourceId: "cust_1" };
const event = (type: EventPayload["type"], data: Record<string, unknown>): EventPayload => ({
  type,
  timestamp: "2026-12-01T12:00:00.000Z",
  data: { ...call, ...data },
});

describe("Slack messages for call.overdue, call.expiring and call.expired", () => {
  it("says a call is overdue, against which target, and since when it waits", () => {
    const message = slackMessage(event("call.overdue", { waitingSince: "2026-12-01T10:00:00.000Z", reviewTargetMinutes: 60 }));
    expect(message.text).toBe("issueRefund is overdue: waiting longer than 60 min");
    expect(JSON.stringify(message.blocks)).toContain("Waiting since <!date^1796119200^");
  });

  it("says when a call expires", () => {
    const message = slackMessage(
      event("call.expiring", { waitingSince: "2026-12-01T10:00:00.000Z", expiresAt: "2026-12-01T12:30:00.000Z" }),
    );
    expect(message.text).toMatch(/^issueRefund expires at <!date\^1796128200\^.*\|2026-12-01T12:30:00.000Z> without a reviewer$/);
  });

  it("says whether an expiry declined the call or only marked it", () => {
    expect(slackMessage(event("call.expired", { mode: "decline" })).text).toBe("issueRefund expired without a reviewer");
    expect(slackMessage(event("call.expired", { mode: "mark" })).text).toBe(
      "issueRefund expired without a reviewer (marked; the agent was not told)",
    );
  });

  it("shows a waiting call's arguments as text: markup escaped, a code fence in a value kept apart, a long value cut", () => {
    const args = { note: "<@U123> <!channel> ```*bold*``` & co", blob: "x".repeat(5_000) };
    const message = slackMessage(event("call.waiting", { waitingSince: "2026-12-01T10:00:00.000Z" }), {
      call: { toolCallId: "call_1", toolName: "issueRefund", args, requiresApproval: true },
    });
    const text = (message.blocks[2] as { text: { text: string } }).text.text;
    expect(text.startsWith("*Arguments*\n```")).toBe(true);
    expect(text.endsWith("…```")).toBe(true);
    const inside = text.slice("*Arguments*\n```".length, -3);
    expect(inside).not.toMatch(/[<>]|```/);
    expect(inside).toContain("&lt;@U123&gt; &lt;!channel&gt;");
    expect(inside).toContain("&amp; co");
    expect(inside.replace(/\u200b/g, "").replace(/&lt;|&gt;|&amp;/g, "x").length).toBe(SLACK_ARGUMENTS_MAX_LENGTH);
    expect(message.blocks.at(-1)!.type).toBe("actions");
  });
});
