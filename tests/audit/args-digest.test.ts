/**
 * The argument digest, on SQLite and PostgreSQL with real agents: a decision records the digest of
 * what the reviewer was shown; one made on other arguments is refused with nothing decided; a
 * decision carried out later (recovery) is not carried out once the run waits on other arguments.
 */
import { describe, expect, it } from "vitest";
import { argsDigestOf } from "../../lib/audit/args-digest.ts";
import { argsDigestText } from "../../lib/audit/args-digest-text.ts";
import { sha256Hex } from "../../lib/audit/chain.ts";
import { verifyAuditChain } from "../../lib/audit/verify.ts";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { approveInput } from "../../lib/decisions/inputs.ts";
import { recordDecision } from "../../lib/decisions/ledger.ts";
import { recoverDecisions } from "../../lib/decisions/recover.ts";
import { findSuspendedRun } from "../../lib/runs/run-detail.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("argument digest on %s", (kind) => {
  const database = useTestDatabase(kind);

  async function waiting(order: string) {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest(order));
    const detail = await findSuspendedRun(run.runId, database.url);
    const call = detail!.toolCalls.find((candidate) => candidate.toolCallId === run.ref.toolCallId)!;
    return { run, call, digest: argsDigestOf(call) };
  }

  it("is the digest of the arguments as JSON with sorted keys, whatever their order", () => {
    const a = { requiresApproval: true, args: { b: 1, a: { d: [2, { z: 1, y: 2 }], c: "é" } } };
    const b = { requiresApproval: true, args: { a: { c: "é", d: [2, { y: 2, z: 1 }] }, b: 1 } };
    expect(argsDigestOf(a)).toBe(argsDigestOf(b));
    expect(argsDigestOf(a)).toBe(sha256Hex('{"a":{"c":"é","d":[2,{"y":2,"z":1}]},"b":1}'));
    expect(argsDigestOf({ requiresApproval: true })).toBe(sha256Hex(argsDigestText({})));
    expect(argsDigestOf({ requiresApproval: false, suspendPayload: { q: 1 } })).toBe(sha256Hex('{"q":1}'));
  });

  it("refuses a decision made on other arguments, and decides nothing", async () => {
    const { run, digest } = await waiting("ORD-8201");
    const other = sha256Hex("something else");
    await expect(
      decide({ action: "approve", ...run.ref, argsDigest: other }, { reviewer: "Ada", databaseUrl: database.url, via: "api" }),
    ).rejects.toMatchObject({ code: "arguments_changed" });
    const db = await getDb(database.url);
    expect(await db.toolCallDecision.count({ where: { runId: run.runId } })).toBe(0);
    const rows = await db.auditEvent.findMany({ where: { runId: run.runId } });
    expect(rows.map((row) => [row.outcome, row.code])).toEqual([["refused", "arguments_changed"]]);
    expect(rows[0]!.message).toContain(other.slice(0, 12));
    expect(await findSuspendedRun(run.runId, database.url)).not.toBeNull();
    expect(digest).not.toBe(other);
  });

  it("records the digest the reviewer was shown on the decision and on each of its audit rows", async () => {
    const { run, digest } = await waiting("ORD-8202");
    await decide({ action: "approve", ...run.ref, argsDigest: digest }, { reviewer: "Ada", databaseUrl: database.url });
    const db = await getDb(database.url);
    expect(await db.toolCallDecision.findFirstOrThrow({ where: { runId: run.runId } })).toMatchObject({
      argsDigest: digest,
      state: "applied",
    });
    const rows = await db.auditEvent.findMany({ where: { runId: run.runId }, orderBy: { chainSeq: "asc" } });
    expect(rows.map((row) => [row.outcome, row.argsDigest])).toEqual([
      ["recorded", digest],
      ["applied", digest],
    ]);
    expect(rows[0]!.argsDigestFrom).toBe("shown");
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it("without a digest in the request, records the one the server read, marked so", async () => {
    const { run, digest } = await waiting("ORD-8203");
    await decide({ action: "decline", ...run.ref }, { reviewer: "Ada", databaseUrl: database.url, via: "api" });
    const db = await getDb(database.url);
    const recorded = await db.auditEvent.findFirstOrThrow({ where: { runId: run.runId, outcome: "recorded" } });
    expect(recorded).toMatchObject({ argsDigest: digest, argsDigestFrom: "read" });
  });

  it("recovery does not carry out a decision once the run waits on other arguments", async () => {
    const { run, call } = await waiting("ORD-8204");
    const db = await getDb(database.url);
    const recorded = await recordDecision(
      db,
      { action: "approve", ...run.ref },
      {
        reviewer: "Ada",
        action: "approve",
        outcome: "recorded",
        ...run.ref,
        agentId: "refunds",
        toolName: call.toolName,
        argsDigest: sha256Hex("stale"),
      },
    );
    await db.toolCallDecision.update({ where: { id: recorded.id }, data: { leaseUntil: new Date(Date.now() - 1_000) } });
    const report = await recoverDecisions(database.url);
    expect(report).toMatchObject({ carriedOut: 0, released: 1 });
    expect(await db.toolCallDecision.findUniqueOrThrow({ where: { id: recorded.id } })).toMatchObject({
      state: "released",
      error: "arguments_changed",
    });
    const released = await db.auditEvent.findFirstOrThrow({ where: { runId: run.runId, outcome: "released" } });
    expect(released.code).toBe("arguments_changed");
    expect(await findSuspendedRun(run.runId, database.url)).not.toBeNull(); // nothing was sent to the agent
  });

  it("refuses a malformed digest in the request", () => {
    for (const argsDigest of ["abc", "A".repeat(64), "g".repeat(64), 5, "0".repeat(64) + "\u0000"]) {
      expect(approveInput.safeParse({ runId: "r", toolCallId: "c", argsDigest }).success).toBe(false);
    }
    expect(approveInput.safeParse({ runId: "r", toolCallId: "c", argsDigest: "0".repeat(64) }).success).toBe(true);
  });
});
