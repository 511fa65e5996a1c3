/**
 * readCallDecisions: where each decided call of a run stands, as the run page reads it when its live
 * stream says a call was decided. A real demo agent's run, decided through the real decision path,
 * on both databases; read-only, so support may read it, and nobody without signing in.
 */
import { describe, expect, it } from "vitest";
import { approveToolCall } from "../../lib/actions/approve-tool-call.ts";
import { readCallDecisions } from "../../lib/actions/read-call-decisions.ts";
import { runAs } from "../../lib/auth/session.ts";
import { actorOf, createTestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("readCallDecisions on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  it("lists nothing for a run nobody decided, then who approved its call, when, and that it was carried out", async () => {
    const [reviewer, support] = await Promise.all([
      createTestAccount(database.url, "reviewer"),
      createTestAccount(database.url, "support"),
    ]);
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-4901"));
    const read = (account = support) => runAs(actorOf(account), () => readCallDecisions({ runId: run.runId }));
    expect(await read()).toEqual({ ok: true, data: [] });

    const before = Date.now();
    expect(await runAs(actorOf(reviewer), () => approveToolCall(run.ref))).toMatchObject({ ok: true });
    const after = await read();
    expect(after).toEqual({
      ok: true,
      data: [
        {
          toolCallId: run.ref.toolCallId,
          decision: { reviewer: reviewer.email, action: "approve", state: "applied", decidedAt: expect.any(String) },
        },
      ],
    });
    const decidedAt = after.ok ? Date.parse(after.data[0]!.decision.decidedAt) : 0;
    expect(decidedAt).toBeGreaterThanOrEqual(before - 1_000);
  });

  it("refuses a malformed run id and anyone not signed in, in words", async () => {
    const reviewer = await createTestAccount(database.url, "reviewer");
    expect(await runAs(actorOf(reviewer), () => readCallDecisions({ runId: "" }))).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
    expect(await runAs(actorOf(reviewer), () => readCallDecisions({ runId: "r", extra: 1 }))).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
    expect(await readCallDecisions({ runId: "r" })).toMatchObject({ ok: false, error: { code: "unauthenticated" } });
  });
});
