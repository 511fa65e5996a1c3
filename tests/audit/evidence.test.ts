/**
 * Oversight evidence on SQLite and PostgreSQL, over real decisions by real agents: each decision's
 * who, sign-in methods, what they saw, when, through what and under which rule version; the rules in
 * force and the expiry rules; the chain's verification; a signature that holds, and fails once a byte changes.
 */
import { describe, expect, it } from "vitest";
import { evidenceCsv, evidenceInput, evidenceJson, periodOf, rulesInForce, verifiedChain } from "../../lib/audit/evidence.ts";
import { checkEvidenceSignature, evidenceKey, newSigner, signatureMember } from "../../lib/audit/evidence-signature.ts";
import { createAccount } from "../../lib/auth/users.ts";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { ruleInputSchema } from "../../lib/rules/validations.ts";
import { createRule, updateRule } from "../../lib/rules/store.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { replaceExpiryRules } from "../helpers/expiry-rules.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

const KEY = "k".repeat(40);

describe.each(["sqlite", "postgres"] as const)("oversight evidence on %s", (kind) => {
  const database = useTestDatabase(kind);

  async function bundle(period = periodOf({})): Promise<string> {
    const db = await getDb(database.url);
    const signer = newSigner(KEY);
    let text = "";
    for await (const piece of evidenceJson(db, period, await verifiedChain(db))) {
      signer.update(piece, "utf8");
      text += piece;
    }
    return text + signatureMember(KEY, signer);
  }

  it("lists each decision with who, how they sign in, what they saw, when, via what and under which rule", async () => {
    const db = await getDb(database.url);
    await createAccount(
      { email: "ada@test.example", name: "Ada", role: "reviewer", password: "correct horse battery staple" },
      { databaseUrl: database.url },
    );
    const ruleInput = ruleInputSchema.parse({
      name: "tiny refunds",
      enabled: false,
      agentId: "refunds",
      toolName: "issueRefund",
      conditions: [{ path: "amount", op: "<=", value: 1 }],
      effect: "approve",
      risk: "low",
    });
    const rule = await createRule(db, ruleInput, "admin@test.example");
    await replaceExpiryRules(database.url, [
      { agentId: "refunds", toolName: "issueRefund", afterMinutes: 120, warnMinutes: 30 },
      { agentId: "refunds", afterMinutes: 1440, mode: "mark" },
    ]);
    await updateRule(db, rule.id, { ...ruleInput, name: "tiny refunds v2" }, "admin@test.example");

    const seen = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8301"));
    const unseen = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8302"));
    await db.callView.create({ data: { ...seen.ref, reviewer: "ada@test.example", openedAt: new Date(), contextOpenedAt: new Date() } });
    await decide({ action: "approve", ...seen.ref }, { reviewer: "ada@test.example", databaseUrl: database.url, via: "console" });
    await decide(
      { action: "decline", ...unseen.ref, reason: "not today" },
      { reviewer: "bob@test.example", databaseUrl: database.url, via: "api" },
    );

    const text = await bundle();
    expect(checkEvidenceSignature(text, KEY)).toMatchObject({ ok: true });
    const parsed = JSON.parse(text);
    expect(parsed).toMatchObject({ kind: "agent-approvals-oversight-evidence", decisionCount: 2, chain: { ok: true, head: { seq: 4 } } });
    expect(parsed.rulesInForce.map((r: { ruleId: string; version: number }) => [r.ruleId, r.version])).toEqual([
      [rule.id, 1],
      [rule.id, 2],
    ]);
    // Beside the rules, the expiry rules as they are now, said to keep no versions.
    expect(parsed.expiryRules).toEqual({
      asOf: parsed.generatedAt,
      versioned: false,
      rules: [
        {
          agentId: "refunds",
          toolName: "",
          afterMinutes: 1440,
          mode: "mark",
          warnMinutes: null,
          updatedBy: "admin@test.example",
          updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        },
        {
          agentId: "refunds",
          toolName: "issueRefund",
          afterMinutes: 120,
          mode: "decline",
          warnMinutes: 30,
          updatedBy: "admin@test.example",
          updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        },
      ],
    });
    const [first, second] = parsed.decisions;
    expect(first).toMatchObject({
      reviewer: "ada@test.example",
      decidedBy: "person",
      reviewerSignInMethods: "password",
      via: "console",
      action: "approve",
      state: "applied",
      runId: seen.runId,
      argsDigestFrom: "read",
      contextOpened: true,
      auditSeq: 1,
    });
    expect(first.argsDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(first.auditHash).toBe((await db.auditEvent.findFirstOrThrow({ where: { chainSeq: 1 } })).hash);
    expect(second).toMatchObject({
      reviewer: "bob@test.example",
      reviewerSignInMethods: "",
      via: "api",
      action: "decline",
      contextOpened: false,
      openedAt: "",
      reason: "not today",
    });
  });

  it("fails the signature once a byte changes, or with another key", async () => {
    const text = await bundle();
    expect(checkEvidenceSignature(text.replace('"approve"', '"decline"'), KEY)).toMatchObject({ ok: false });
    expect(checkEvidenceSignature(text, "x".repeat(40))).toMatchObject({ ok: false, message: expect.stringMatching(/another key/) });
    expect(checkEvidenceSignature(text.slice(0, -10), KEY).ok).toBe(false);
  });

  it("keeps to its period, and reports a broken chain in the bundle", async () => {
    expect(JSON.parse(await bundle(periodOf({ from: "2020-01-01", to: "2020-01-31" }))).decisionCount).toBe(0);
    const db = await getDb(database.url);
    await db.$executeRawUnsafe(`UPDATE audit_events SET reviewer = 'mallory@test.example' WHERE chain_seq = 2`);
    const parsed = JSON.parse(await bundle());
    expect(parsed.chain).toMatchObject({ ok: false, problem: { kind: "changed", seq: 2 } });
    const csv = [];
    for await (const piece of evidenceCsv(db, periodOf({}))) csv.push(piece);
    const lines = csv.join("").trimEnd().split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^decisionId,decidedAt,reviewer,decidedBy,authMethod,tokenId,tokenName,reviewerSignInMethods,via,/);
    expect(lines[1]).toContain("ada@test.example");
  });

  it("refuses a bad period and works out days as UTC", async () => {
    expect(evidenceInput.safeParse({ from: "2026-13-01" }).success).toBe(false);
    expect(evidenceInput.safeParse({ from: "2026-02-02", to: "2026-02-01" }).success).toBe(false);
    expect(evidenceInput.safeParse({ from: "2026-02-01", extra: "1" }).success).toBe(false);
    expect(evidenceInput.safeParse({ format: "xml" }).success).toBe(false);
    expect(periodOf({ from: "2026-02-01", to: "2026-02-01" })).toEqual({
      from: new Date("2026-02-01T00:00:00Z"),
      until: new Date("2026-02-02T00:00:00Z"),
    });
    expect(evidenceKey({})).toMatchObject({ ok: false });
    expect(evidenceKey({ EVIDENCE_SIGNING_KEY: "short" })).toMatchObject({ ok: false });
    expect((await rulesInForce(await getDb(database.url), periodOf({ from: "2020-01-01", to: "2020-01-02" }))).length).toBe(0);
  });
});
