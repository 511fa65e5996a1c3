/**
 * Every change of access in the audit log, on SQLite and PostgreSQL: a token (own or a service
 * account's) and a service account created, a user created, a role changed, besides the revokes and
 * disables. Each writes one row (never the secret) with what changed as data, under the hash chain,
 * which still holds; a change refused or not made writes none. The history tells them from
 * decisions (kind=access / kind=decisions), and the evidence bundle lists them as their own section.
 */
import { describe, expect, it } from "vitest";
import { accessRecorder, isAccessChange, recordUserCreated } from "../../lib/audit/access-changes.ts";
import { evidenceJson, periodOf, verifiedChain } from "../../lib/audit/evidence.ts";
import { checkEvidenceSignature, newSigner, signatureMember } from "../../lib/audit/evidence-signature.ts";
import { listHistory } from "../../lib/audit/history.ts";
import { auditCsv } from "../../lib/audit/queries.ts";
import { verifyAuditChain } from "../../lib/audit/verify.ts";
import { createServiceAccount, setServiceAccountDisabled } from "../../lib/auth/service-accounts.ts";
import { createToken, revokeToken } from "../../lib/auth/tokens.ts";
import { changeRole } from "../../lib/auth/users.ts";
import { getDb } from "../../lib/db/client.ts";
import { auditQuery } from "../../lib/search-params.ts";
import { actorOf, createTestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { writeRows } from "./chain-helpers.ts";

const KEY = "k".repeat(40);

describe.each(["sqlite", "postgres"] as const)("access changes in the audit log on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind);
  const accessRows = async () =>
    (await getDb(database.url)).auditEvent.findMany({ where: { runId: "", action: { not: "approve" } }, orderBy: { id: "asc" } });

  it("writes one row per grant and removal, with what changed and never a secret, and the chain holds", async () => {
    const db = await getDb(database.url);
    const admin = actorOf(await createTestAccount(database.url, "admin", `Ada-${kind}`));
    const rita = await createTestAccount(database.url, "reviewer", `Rita-${kind}`);
    await writeRows(db, 2, admin.email); // decisions before, so the access rows join a chain already under way
    const account = await createServiceAccount(
      { name: "ci-bot", role: "reviewer" },
      admin,
      accessRecorder(admin, "create-service-account"),
      database.url,
    );
    const token = await createToken(
      { name: "deploy pipeline", scopes: ["queue:read", "decisions:write"], expiresInDays: 30 },
      { serviceAccountId: account.id },
      admin,
      accessRecorder(admin, "create-token"),
      database.url,
    );
    const own = await createToken(
      { name: "laptop", scopes: ["queue:read"] },
      { userId: admin.id, role: "admin" },
      admin,
      accessRecorder(admin, "create-token"),
      database.url,
    );
    await changeRole(rita.id, "admin", { actorId: admin.id, record: accessRecorder(admin, "change-role"), databaseUrl: database.url });
    await recordUserCreated(db, admin, { id: rita.id, email: rita.email, role: "reviewer" });
    await revokeToken(own.id, admin, { anyOwner: true, record: accessRecorder(admin, "revoke-token") }, database.url);
    await setServiceAccountDisabled(
      { id: account.id, disabled: true },
      admin,
      accessRecorder(admin, "disable-service-account"),
      database.url,
    );

    const rows = await accessRows();
    expect(rows.map((row) => row.action)).toEqual([
      "create-service-account",
      "create-token",
      "create-token",
      "change-role",
      "create-user",
      "revoke-token",
      "disable-service-account",
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ reviewer: admin.email, outcome: "recorded", runId: "", toolCallId: "", decisionId: null });
      // The secret is shown once, to its creator: it is in no audit row, nor is its hash.
      expect(JSON.stringify(row)).not.toContain(token.token);
      expect(JSON.stringify(row)).not.toContain(own.token);
    }
    const stored = await db.apiToken.findUniqueOrThrow({ where: { id: token.id }, select: { hash: true, createdAt: true } });
    expect(rows.some((row) => JSON.stringify(row).includes(stored.hash))).toBe(false);
    // The token's row is written with the token, at the same instant: the row says what was given.
    expect(rows[1]!.at).toEqual(stored.createdAt);
    expect(JSON.parse(rows[1]!.args!)).toEqual({
      kind: "token",
      id: token.id,
      name: "deploy pipeline",
      prefix: token.prefix,
      scopes: ["queue:read", "decisions:write"],
      expiresAt: token.expiresAt,
      owner: { kind: "service", id: account.id, label: "service-account:ci-bot" },
    });
    expect(rows[1]!.message).toBe(
      `Created the API token "deploy pipeline" (${token.prefix}…, ${token.id}) of service-account:ci-bot: scopes queue:read, decisions:write; expires ${token.expiresAt}.`,
    );
    expect(JSON.parse(rows[2]!.args!)).toMatchObject({
      kind: "token",
      expiresAt: null,
      owner: { kind: "user", id: admin.id, label: admin.email },
    });
    expect(rows[2]!.message).toMatch(/; never expires\.$/);
    expect(JSON.parse(rows[0]!.args!)).toEqual({ kind: "service-account", id: account.id, name: "ci-bot", role: "reviewer" });
    expect(JSON.parse(rows[3]!.args!)).toEqual({ kind: "user", id: rita.id, email: rita.email, role: "admin", previousRole: "reviewer" });
    expect(rows[3]!.message).toBe(`Changed the role of ${rita.email} (${rita.id}) from reviewer to admin.`);
    expect(JSON.parse(rows[4]!.args!)).toEqual({ kind: "user", id: rita.id, email: rita.email, role: "reviewer" });
    expect(JSON.parse(rows[5]!.args!)).toMatchObject({ kind: "token", id: own.id, name: "laptop" });
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: 9, problem: null });
  });

  it("writes nothing for a change refused or not made", async () => {
    const db = await getDb(database.url);
    const admin = actorOf(await createTestAccount(database.url, "admin"));
    const support = await createTestAccount(database.url, "support");
    const before = await db.auditEvent.count();
    // A scope above the owner's role, an unknown service account, a name taken: refused before anything is written.
    await expect(
      createToken(
        { name: "too much", scopes: ["admin"] },
        { userId: support.id, role: "support" },
        admin,
        accessRecorder(admin, "create-token"),
        database.url,
      ),
    ).rejects.toThrow(/cannot use the scope admin/);
    await expect(
      createToken(
        { name: "nobody's", scopes: ["queue:read"] },
        { serviceAccountId: "sa_missing" },
        admin,
        accessRecorder(admin, "create-token"),
        database.url,
      ),
    ).rejects.toMatchObject({ code: "service_account_not_found" });
    const record = accessRecorder(admin, "create-service-account");
    await createServiceAccount({ name: "twice", role: "support" }, admin, record, database.url);
    // Two admins creating the same name at the same moment: one account, one row.
    const both = await Promise.allSettled([
      createServiceAccount({ name: "race", role: "support" }, admin, record, database.url),
      createServiceAccount({ name: "race", role: "support" }, admin, record, database.url),
    ]);
    expect(both.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    await expect(createServiceAccount({ name: "twice", role: "admin" }, admin, record, database.url)).rejects.toMatchObject({
      code: "service_account_exists",
    });
    // A token cannot give access; the same role again is no change.
    const viaToken = {
      ...admin,
      credential: { method: "token" as const, token: { id: "tok_x", name: "x", prefix: "x", scopes: [], owner: "user" as const } },
    };
    await expect(
      createToken(
        { name: "child", scopes: ["queue:read"] },
        { userId: admin.id, role: "admin" },
        viaToken,
        accessRecorder(viaToken, "create-token"),
        database.url,
      ),
    ).rejects.toMatchObject({ code: "forbidden" });
    await changeRole(support.id, "support", { actorId: admin.id, record: accessRecorder(admin, "change-role"), databaseUrl: database.url });
    expect((await db.auditEvent.findMany({ orderBy: { id: "asc" }, skip: before })).map((row) => row.action)).toEqual([
      "create-service-account",
      "create-service-account",
    ]);
    expect(await db.apiToken.count({ where: { name: { in: ["too much", "nobody's", "child"] } } })).toBe(0);
  });

  it("tells access changes from decisions in the history and its CSV", async () => {
    const admin = actorOf(await createTestAccount(database.url, "admin"));
    await writeRows(await getDb(database.url), 1, "grace@test.example");
    await createServiceAccount(
      { name: "history-bot", role: "support" },
      admin,
      accessRecorder(admin, "create-service-account"),
      database.url,
    );
    const history = (query: Record<string, string>) => listHistory(auditQuery.parse(query), database.url);

    const access = await history({ kind: "access", reviewer: admin.email });
    expect(access.entries).toEqual([
      expect.objectContaining({
        kind: "access",
        head: expect.objectContaining({ action: "create-service-account" }),
        access: expect.objectContaining({ kind: "service-account", name: "history-bot", role: "support" }),
      }),
    ]);
    // Both are `recorded`: a reviewer filtering decisions sees no access change, and the other way round.
    const decisions = await history({ kind: "decisions", outcome: "recorded" });
    expect(decisions.entries.length).toBeGreaterThan(0);
    expect(decisions.entries.some((entry) => entry.kind === "access" || isAccessChange(entry.head.action))).toBe(false);
    expect((await history({ kind: "access" })).entries.every((entry) => entry.kind === "access")).toBe(true);
    expect((await history({})).entries.map((entry) => entry.kind)).toContain("access");
    expect(() => auditQuery.parse({ kind: "grants" })).toThrow(/Kind must be one of decisions, access/);

    let csv = "";
    for await (const chunk of auditCsv(auditQuery.parse({ kind: "access", reviewer: admin.email }), database.url)) csv += chunk;
    expect(csv.trim().split("\r\n")).toHaveLength(2);
    expect(csv).toContain("create-service-account");
  });

  it("lists the period's access changes in the evidence bundle, signed, beside the decisions", async () => {
    const db = await getDb(database.url);
    const signer = newSigner(KEY);
    let text = "";
    for await (const piece of evidenceJson(db, periodOf({}), await verifiedChain(db))) {
      signer.update(piece, "utf8");
      text += piece;
    }
    text += signatureMember(KEY, signer);
    expect(checkEvidenceSignature(text, KEY)).toMatchObject({ ok: true });
    const bundle = JSON.parse(text);
    const rows = await accessRows();
    expect(bundle.accessChangeCount).toBe(rows.length);
    expect(bundle.accessChanges.map((row: { change: string }) => row.change)).toEqual(rows.map((row) => row.action));
    const created = bundle.accessChanges.find((row: { change: string }) => row.change === "create-token");
    expect(created).toMatchObject({
      changedBy: expect.stringMatching(/^ada-/),
      authMethod: "",
      subject: { kind: "token", name: "deploy pipeline", scopes: ["queue:read", "decisions:write"] },
      auditSeq: expect.any(Number),
      auditHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // A period before any of them: the section is there, empty.
    const before = JSON.parse(
      await (async () => {
        let old = "";
        for await (const piece of evidenceJson(db, periodOf({ from: "2020-01-01", to: "2020-01-31" }), await verifiedChain(db)))
          old += piece;
        return `${old}}`;
      })(),
    );
    expect(before).toMatchObject({ accessChanges: [], accessChangeCount: 0 });
  });
});
