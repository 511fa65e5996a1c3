/**
 * A supervisor (Mastra's `agents` option) whose sub-agent's tool waits: Mastra stores the
 * sub-agent's inner run and the supervisor's outer run, both suspended. The console lists the outer
 * run once, with the delegation path, exactly as `supervisor.listSuspendedRuns()` does; decisions
 * go through the supervisor, continue the sub-agent and run its tool once, also after a crash.
 * Real demo agents on the scripted model, SQLite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { createConsoleMastra, type ConsoleMastra } from "../../lib/mastra/index.ts";
import { delegated, requests } from "../../lib/mastra/demo/requests.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { listThreads } from "../../lib/runs/list-threads.ts";
import { asContractRuns } from "../helpers/contract.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { runConsoleProcess } from "../helpers/console-process.ts";
import { useTestDatabase } from "../helpers/databases.ts";

const LEASE_MS = 300;

describe.each(["sqlite", "postgres"] as const)("a supervisor's delegated calls on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  let mastra: ConsoleMastra;

  beforeAll(async () => {
    mastra = await createConsoleMastra(database.url);
  });

  /** Runs the support desk on a fresh thread of `resource` until the delegated tool waits. */
  async function delegate(request: { agent: "refunds" | "shipping"; text: string }, resource = `cust_${randomUUID()}`) {
    const thread = `ticket-${randomUUID()}`;
    const instance = await createConsoleMastra(database.url);
    const waiting = await runUntilWaiting(instance.getAgent("supportDesk"), delegated(request).text, { thread, resource });
    return { ...waiting, ref: { runId: waiting.runId, toolCallId: waiting.toolCallId }, thread, resource };
  }

  async function stored(resource: string) {
    const db = await getDb(database.url);
    const rows = await db.workflowSnapshot.findMany({
      where: { OR: [{ resourceId: resource }, { resourceId: { startsWith: `${resource}-` } }], workflowName: "agentic-loop" },
      select: { runId: true, agentId: true, status: true, resourceId: true },
    });
    const effects = await db.toolEffect.findMany({ where: { resourceId: { startsWith: resource } } });
    return { rows, effects };
  }

  it("lists the supervisor's outer run once, with its path, as supervisor.listSuspendedRuns() does", async () => {
    const resource = `cust_${randomUUID()}`;
    const refund = await delegate(requests.refund({ order: "ORD-7001" }), resource);
    const shipping = await delegate(requests.shipping({ order: "ORD-7002" }), resource);
    const direct = await runUntilWaiting(mastra.getAgent("refunds"), requests.refund({ order: "ORD-7003" }).text, {
      thread: `ticket-${randomUUID()}`,
      resource,
    });

    // Mastra stores an inner run per delegation, owned by the sub-agent, on a resource of its own.
    const { rows } = await stored(resource);
    expect(rows).toHaveLength(5);
    const inner = rows.filter((row) => row.resourceId !== resource);
    expect(inner.map((row) => row.status)).toEqual(["suspended", "suspended"]);
    // … which the console sets aside: no owner in the columns every count is derived from.
    expect(inner.map((row) => row.agentId)).toEqual([null, null]);

    const supportDesk = mastra.getAgent("supportDesk");
    for (const filter of [{}, { resourceId: resource }, { threadId: refund.thread }, { perPage: 1, page: 1, resourceId: resource }]) {
      const theirs = await supportDesk.listSuspendedRuns(filter);
      const ours = await listSuspendedRuns({ ...filter, agentId: "support-desk" }, database.url);
      expect(asContractRuns(ours, "agent", { keepPath: false })).toEqual(theirs);
    }

    const ours = await listSuspendedRuns({ resourceId: resource }, database.url);
    expect(ours.total).toBe(3);
    expect(ours.runs.map((run) => run.runId).sort()).toEqual([refund.runId, shipping.runId, direct.runId].sort());
    const callOf = (runId: string) => ours.runs.find((run) => run.runId === runId)!.toolCalls;
    // Mastra names the sub-agent's tool for an approval, its own `agent-<name>` tool for a suspend().
    expect(callOf(refund.runId)).toEqual([
      expect.objectContaining({ toolName: "issueRefund", requiresApproval: true, path: ["support-desk", "refunds", "issueRefund"] }),
    ]);
    expect(callOf(shipping.runId)).toEqual([
      expect.objectContaining({
        toolName: "agent-shipping",
        requiresApproval: false,
        suspendPayload: expect.objectContaining({ orderId: "ORD-7002" }),
        path: ["support-desk", "shipping", "chooseShippingAddress"],
      }),
    ]);
    expect(callOf(direct.runId)[0]!.path).toBeUndefined();

    // The sub-agent: Mastra's own listing also returns the inner runs; the console's agent filter
    // shows only the runs the agent was asked for itself (inner runs are continued through the supervisor).
    const refundsTheirs = await mastra.getAgent("refunds").listSuspendedRuns({});
    const refundsOurs = await listSuspendedRuns({ agentId: "refunds", resourceId: resource }, database.url);
    expect(refundsOurs.runs.map((run) => run.runId)).toEqual([direct.runId]);
    const innerRefund = inner.find((row) => row.resourceId === `${resource}-refunds`)!;
    expect(refundsTheirs.runs.map((run) => run.runId)).toEqual(expect.arrayContaining([direct.runId, innerRefund.runId]));

    // The totals and the per-thread summaries agree with the listing.
    const overdueBefore = new Date(0);
    const byResource = await listThreads({ resourceId: resource, overdueBefore }, database.url);
    expect({ threads: byResource.threadTotal, calls: byResource.callTotal }).toEqual({ threads: 3, calls: 3 });
    const all = await listSuspendedRuns({}, database.url);
    const summaries = await listThreads({ overdueBefore, perPage: 100 }, database.url);
    expect(summaries.callTotal).toBe(all.total);
    const db = await getDb(database.url);
    expect((await db.suspendedRunCount.aggregate({ _sum: { runs: true } }))._sum.runs).toBe(all.total);
    expect(all.runs.some((run) => inner.some((row) => row.runId === run.runId))).toBe(false);

    // An inner run is not decidable on its own: it is continued through its supervisor.
    const innerCallId = refundsTheirs.runs.find((run) => run.runId === innerRefund.runId)!.toolCalls[0]!.toolCallId!;
    await expect(
      decide(
        { action: "approve", runId: innerRefund.runId, toolCallId: innerCallId },
        { reviewer: "rita@test.example", databaseUrl: database.url },
      ),
    ).rejects.toMatchObject({ code: "run_not_found", message: expect.stringMatching(/a sub-agent's run inside a supervisor's run/) });
    expect((await stored(resource)).effects).toEqual([]);
  });

  it("approve, decline and resume through the console continue the sub-agent; its tool runs once", async () => {
    const approved = await delegate(requests.refund({ order: "ORD-7101" }));
    const outcome = await decide({ action: "approve", ...approved.ref }, { reviewer: "rita@test.example", databaseUrl: database.url });
    expect(outcome).toMatchObject({ runState: "completed", agentId: "support-desk" });
    expect(outcome.answer).toBe("The refunds agent answered: Refund re_ord7101 issued: 42.5 EUR for order ORD-7101.");
    let after = await stored(approved.resource);
    expect(after.rows).toEqual([]);
    expect(after.effects.map((effect) => [effect.agentId, effect.toolName])).toEqual([["refunds", "issueRefund"]]);
    // A second approval of the same call is refused: the tool does not run again.
    await expect(
      decide({ action: "approve", ...approved.ref }, { reviewer: "sam@test.example", databaseUrl: database.url }),
    ).rejects.toThrow(/already approved/);
    expect((await stored(approved.resource)).effects).toHaveLength(1);

    const declined = await delegate(requests.refund({ order: "ORD-7102" }));
    const no = await decide(
      { action: "decline", ...declined.ref, reason: "Not eligible" },
      { reviewer: "rita@test.example", databaseUrl: database.url },
    );
    expect(no.answer).toMatch(/^The refunds agent answered: I did not go ahead with issueRefund: .*Not eligible/);
    after = await stored(declined.resource);
    expect(after).toEqual({ rows: [], effects: [] });

    const order = "ORD-7103";
    const shipping = await delegate(requests.shipping({ order }));
    const home = `addr_${order.toLowerCase().replace(/[^a-z0-9]/g, "")}_home`;
    // Resume data is checked against the sub-agent's tool's schema before anything is recorded.
    await expect(
      decide(
        { action: "resume", ...shipping.ref, resumeData: { address: home } },
        { reviewer: "rita@test.example", databaseUrl: database.url },
      ),
    ).rejects.toMatchObject({ code: "invalid_resume_data" });
    const resumed = await decide(
      { action: "resume", ...shipping.ref, resumeData: { addressId: home } },
      { reviewer: "rita@test.example", databaseUrl: database.url },
    );
    expect(resumed.answer).toBe(`The shipping agent answered: Order ${order} will ship to Home: 12 Main Street, Lyon.`);
    after = await stored(shipping.resource);
    expect(after.rows).toEqual([]);
    expect(after.effects.map((effect) => effect.toolName)).toEqual(["chooseShippingAddress"]);
    // The decision and its history name the tool that waited, not the supervisor's `agent-shipping`.
    const db = await getDb(database.url);
    expect(await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: shipping.ref } })).toMatchObject({
      agentId: "support-desk",
      toolName: "chooseShippingAddress",
      state: "applied",
    });
  });

  it("a decision recorded, then the server killed before it was sent, is carried out once by recovery", async () => {
    const run = await delegate(requests.refund({ order: "ORD-7201" }));
    const env = { DECISION_LEASE_MS: String(LEASE_MS) };
    const killed = await runConsoleProcess([database.url, "approve", run.runId, run.toolCallId], {
      ...env,
      APPROVALS_FAILPOINT: "after-record",
    });
    expect(killed.signal, killed.stderr).toBe("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 200));
    expect((await listSuspendedRuns({ resourceId: run.resource }, database.url)).total).toBe(1);
    expect((await stored(run.resource)).effects).toEqual([]);

    const restarted = await runConsoleProcess([database.url, "recover"], env);
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(JSON.parse(restarted.stdout.trim().split("\n").at(-1)!)).toEqual({ carriedOut: 1, released: 0, applied: 0, failed: 0 });

    const db = await getDb(database.url);
    const decision = await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: run.ref } });
    expect(decision).toMatchObject({ state: "applied", agentId: "support-desk", answer: expect.stringContaining("re_ord7201") });
    const after = await stored(run.resource);
    expect(after.rows).toEqual([]);
    expect(after.effects.map((effect) => effect.toolName)).toEqual(["issueRefund"]);
    expect((await listSuspendedRuns({ resourceId: run.resource }, database.url)).total).toBe(0);
  });
});
