/**
 * The server actions that decide, called as the browser calls them: real demo agents, real store,
 * on SQLite and PostgreSQL. Bad input gets its own clear error and leaves the database untouched.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { approveToolCall as approveAction } from "../../lib/actions/approve-tool-call.ts";
import { declineToolCall as declineAction } from "../../lib/actions/decline-tool-call.ts";
import { resumeToolCall as resumeAction } from "../../lib/actions/resume-tool-call.ts";
import { GET as getRunsRoute } from "../../app/api/runs/route.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import { actorOf, createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, shippingRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { getRunDetail } from "../../lib/queue/views.ts";

describe.each(["sqlite", "postgres"] as const)("decision actions on %s", (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  let reviewer: TestAccount;
  let support: TestAccount;

  beforeAll(async () => {
    reviewer = await createTestAccount(database.url, "reviewer", "Rita");
    support = await createTestAccount(database.url, "support", "Sam");
  });

  // The server actions as the signed-in reviewer calls them (no HTTP request here: runAs names her).
  const asReviewer = <T>(work: () => Promise<T>) => runAs(actorOf(reviewer), work);
  const approveToolCall = (input: Parameters<typeof approveAction>[0]) => asReviewer(() => approveAction(input));
  const declineToolCall = (input: Parameters<typeof declineAction>[0]) => asReviewer(() => declineAction(input));
  const resumeToolCall = (input: Parameters<typeof resumeAction>[0]) => asReviewer(() => resumeAction(input));
  const listRuns = async (params: Record<string, string>) => {
    const response = await asReviewer(() => getRunsRoute(new Request(`http://console.test/api/runs?${new URLSearchParams(params)}`)));
    return (await response.json()) as { ok: boolean; data?: unknown };
  };

  const refund = (order = "ORD-9") => suspendDemoRun(database.url, "refunds", refundRequest(order));
  const shipping = () => suspendDemoRun(database.url, "shipping", shippingRequest());

  /** Everything the store holds, to prove a refused request changed nothing. */
  async function storeState() {
    const db = await getDb(database.url);
    const rows = await db.workflowSnapshot.findMany({ orderBy: [{ runId: "asc" }, { workflowName: "asc" }] });
    return {
      snapshots: rows.map(
        (row) => `${row.workflowName}/${row.runId}/${row.status}/${row.version}/${row.updatedAt.toISOString()}/${row.snapshot}`,
      ),
      decisions: await db.toolCallDecision.count(),
      effects: await db.toolEffect.count(),
    };
  }

  it("approves through the owning agent and reports the agent's answer", async () => {
    const call = await refund("ORD-1201");
    const result = await approveToolCall(call.ref);
    expect(result).toEqual({
      ok: true,
      data: {
        action: "approve",
        runId: call.runId,
        toolCallId: call.ref.toolCallId,
        agentId: "refunds",
        answer: "Refund re_ord1201 issued: 42.5 EUR for order ORD-1201.",
        runState: "completed",
      },
    });
    expect(await getRunDetail(call.runId)).toBeNull();
    const db = await getDb(database.url);
    const effects = await db.toolEffect.findMany({ where: { toolCallId: call.ref.toolCallId } });
    expect(effects.map((e) => [e.agentId, e.toolName, JSON.parse(e.output).refundId])).toEqual([["refunds", "issueRefund", "re_ord1201"]]);
    const audit = await db.auditEvent.findMany({ where: { runId: call.runId }, orderBy: { id: "asc" } });
    expect(audit.map((e) => [e.reviewer, e.action, e.outcome, e.agentId, e.toolName])).toEqual([
      [reviewer.email, "approve", "recorded", "refunds", "issueRefund"],
      [reviewer.email, "approve", "applied", "refunds", "issueRefund"],
    ]);
    expect(JSON.parse(audit[0]!.args!)).toMatchObject({ orderId: "ORD-1201", amount: 42.5 });
    expect(audit[1]!.answer).toBe("Refund re_ord1201 issued: 42.5 EUR for order ORD-1201.");
    expect(await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: call.ref } })).toMatchObject({
      state: "applied",
      attempts: 1,
    });
  });

  it("declines with the reason reaching the agent", async () => {
    const call = await refund();
    const result = await declineToolCall({ ...call.ref, reason: "Already refunded by the bank" });
    expect(result).toMatchObject({
      ok: true,
      data: { action: "decline", answer: "I did not go ahead with issueRefund: Already refunded by the bank" },
    });
    const db = await getDb(database.url);
    expect(await db.toolEffect.count({ where: { toolCallId: call.ref.toolCallId } })).toBe(0);
    expect(await db.auditEvent.findFirst({ where: { runId: call.runId, outcome: "applied" } })).toMatchObject({
      reason: "Already refunded by the bank",
    });
    expect(await listRuns({ resourceId: call.resource })).toMatchObject({ ok: true, data: { total: 0 } });
  });

  it("resumes with data that matches the tool's schema", async () => {
    const call = await shipping();
    expect(await getRunDetail(call.runId)).toMatchObject({
      toolCalls: [{ requiresApproval: false, resumeSchema: { type: "object", required: ["addressId"] } }],
    });
    const result = await resumeToolCall({ ...call.ref, resumeData: '{"addressId":"addr_home","note":"Leave at the door"}' });
    expect(result).toMatchObject({ ok: true, data: { answer: "Order ORD-77 will ship to Home: 1 Main St, Springfield." } });
  });

  describe("refuses bad input with a clear error and changes nothing", () => {
    let approval: Awaited<ReturnType<typeof refund>>;
    let input: Awaited<ReturnType<typeof shipping>>;

    beforeAll(async () => {
      approval = await refund();
      input = await shipping();
    });

    const cases: Array<[string, () => Promise<{ ok: boolean; error?: { code: string; message: string } }>, string, RegExp]> = [
      [
        "approve as support",
        () => runAs(actorOf(support), () => approveAction(approval.ref)),
        "forbidden",
        /Your role \(support\) may not approve, decline or resume/,
      ],
      [
        "resume as support",
        () => runAs(actorOf(support), () => resumeAction({ ...input.ref, resumeData: '{"addressId":"addr_home"}' })),
        "forbidden",
        /Your role \(support\)/,
      ],
      ["approve without signing in", () => approveAction(approval.ref), "unauthenticated", /Sign in to continue/],
      ["approve an unknown run", () => approveToolCall({ runId: randomUUID(), toolCallId: "call_x" }), "run_not_found", /No suspended run/],
      [
        "approve an unknown tool call",
        () => approveToolCall({ runId: approval.runId, toolCallId: "call_nope" }),
        "tool_call_not_pending",
        /not waiting on tool call "call_nope"/,
      ],
      [
        "approve with an empty run id",
        () => approveToolCall({ runId: "", toolCallId: approval.ref.toolCallId }),
        "invalid_input",
        /runId must not be empty/,
      ],
      [
        "approve with a non-string id",
        () => approveToolCall({ runId: 42 as never, toolCallId: approval.ref.toolCallId }),
        "invalid_input",
        /runId must be a string/,
      ],
      [
        "approve with extra fields",
        () => approveToolCall({ ...approval.ref, status: "approved" } as never),
        "invalid_input",
        /^unknown field: status$/,
      ],
      [
        "approve a refunds run as another agent",
        () => approveToolCall({ ...approval.ref, agentId: "outreach" }),
        "wrong_agent",
        /belongs to agent "refunds", not "outreach"/,
      ],
      [
        "resume a shipping run as another agent",
        () => resumeToolCall({ ...input.ref, agentId: "refunds", resumeData: '{"addressId":"addr_home"}' }),
        "wrong_agent",
        /belongs to agent "shipping"/,
      ],
      ["approve a call that waits for data", () => approveToolCall(input.ref), "wrong_kind", /waits for data/],
      ["decline a call that waits for data", () => declineToolCall(input.ref), "wrong_kind", /waits for data/],
      [
        "decline with an oversized reason",
        () => declineToolCall({ ...approval.ref, reason: "x".repeat(2_001) }),
        "invalid_input",
        /reason is longer than 2000/,
      ],
      ["resume an approval call", () => resumeToolCall({ ...approval.ref, resumeData: "{}" }), "wrong_kind", /waits for approval/],
      [
        "resume with malformed JSON",
        () => resumeToolCall({ ...input.ref, resumeData: '{"addressId": ' }),
        "invalid_input",
        /^The resume data is not valid JSON \(line 1, column 15\): the text ends where a value was expected$/,
      ],
      [
        "resume with a schema mismatch",
        () => resumeToolCall({ ...input.ref, resumeData: '{"addressId": 42}' }),
        "invalid_resume_data",
        /expects: addressId must be a string \(text in double quotes\), not a number$/,
      ],
      [
        "resume with a wrong field and an unknown one",
        () => resumeToolCall({ ...input.ref, resumeData: '{"adressId": "addr_home"}' }),
        "invalid_resume_data",
        /expects: addressId is required$/,
      ],
      [
        "resume with a missing field",
        () => resumeToolCall({ ...input.ref, resumeData: "{}" }),
        "invalid_resume_data",
        /expects: addressId is required$/,
      ],
      [
        "resume with __proto__",
        () => resumeToolCall({ ...input.ref, resumeData: '{"addressId":"addr_home","__proto__":{"admin":true}}' }),
        "invalid_input",
        /forbidden key "__proto__"/,
      ],
      [
        "resume with nested constructor",
        () => resumeToolCall({ ...input.ref, resumeData: '{"a":{"constructor":{"prototype":1}}}' }),
        "invalid_input",
        /forbidden key "constructor"/,
      ],
      [
        "resume with deep nesting",
        () => resumeToolCall({ ...input.ref, resumeData: "[".repeat(40) + "]".repeat(40) }),
        "invalid_input",
        /nested deeper than 32/,
      ],
      [
        "resume with an oversized payload",
        () => resumeToolCall({ ...input.ref, resumeData: JSON.stringify({ addressId: "a".repeat(70_000) }) }),
        "invalid_input",
        /larger than 64 KiB/,
      ],
      [
        "resume with a non-JSON value",
        () => resumeToolCall({ ...input.ref, resumeData: { addressId: "addr_home" } as never }),
        "invalid_input",
        /must be JSON text/,
      ],
    ];

    it.each(cases)("%s", async (_name, attempt, code, message) => {
      const db = await getDb(database.url);
      const before = await storeState();
      const auditBefore = await db.auditEvent.count();
      const result = await attempt();
      expect(result.ok).toBe(false);
      expect(result.error).toMatchObject({ code, message: expect.stringMatching(message) });
      expect(await storeState()).toEqual(before);
      // Refused, and the refusal is in the audit log with its reason.
      const refusal = await db.auditEvent.findFirstOrThrow({ orderBy: { id: "desc" } });
      expect(await db.auditEvent.count()).toBe(auditBefore + 1);
      expect(refusal).toMatchObject({ outcome: "refused", code });
      // A signed-in caller's refusal names the agent and tool of a call the server knows, even when
      // the request failed its input check before reaching decide().
      const known: Record<string, { agentId: string; toolCallId: string; toolName: string }> = {
        [approval.runId]: { agentId: "refunds", toolCallId: approval.ref.toolCallId, toolName: "issueRefund" },
        [input.runId]: { agentId: "shipping", toolCallId: input.ref.toolCallId, toolName: "chooseShippingAddress" },
      };
      const call = known[refusal.runId];
      if (refusal.reviewer !== "anonymous" && call) {
        expect(refusal.agentId).toBe(call.agentId);
        expect(refusal.toolName).toBe(refusal.toolCallId === call.toolCallId ? call.toolName : null);
      }
    });

    it("leaves both runs decidable afterwards", async () => {
      expect(await approveToolCall(approval.ref)).toMatchObject({ ok: true });
      expect(await resumeToolCall({ ...input.ref, resumeData: '{"addressId":"addr_home"}' })).toMatchObject({ ok: true });
    });
  });

  it("tells the second of two sequential decisions that the run was already decided", async () => {
    const call = await refund();
    expect(await approveToolCall(call.ref)).toMatchObject({ ok: true });
    expect(await declineToolCall(call.ref)).toMatchObject({
      ok: false,
      error: {
        code: "already_decided",
        message: expect.stringMatching(/^rita@test\.example already approved this tool call at \d{4}-/),
        priorDecision: { reviewer: "rita@test.example", action: "approve", state: "applied", decidedAt: expect.any(String) },
      },
    });
  });
});
