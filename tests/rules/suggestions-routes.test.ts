/**
 * The backtest and suggested rules' JSON routes against a real console server, on SQLite and
 * PostgreSQL, over decisions made through the product's own code: admins only; every bad input
 * (a period of 0 or 1000 days, a share of 2, unknown fields, a suggested rule asked enabled) is a
 * 400 that changes nothing; a suggestion taken becomes a disabled rule whose first version keeps
 * the suggestion's backtest, which a backtest of the saved rule repeats.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import type { RuleProposal } from "../../lib/rules/dto.ts";
import { startSignedInConsole, stopSignedInConsole, type SignedInConsole } from "../helpers/config-api.ts";
import { decideRefunds } from "../helpers/decided-history.ts";

const SUGGESTIONS = "/api/admin/rules/suggestions";
const ACCEPT = "/api/admin/rules/suggestions/accept";
const BACKTEST = "/api/admin/rules/backtest";

describe.each(["sqlite", "postgres"] as const)("suggested rules over HTTP on %s", { timeout: 300_000 }, (kind) => {
  let started: SignedInConsole;

  beforeAll(async () => {
    started = await startSignedInConsole(kind);
    // Six small refunds of zeta: customers people approved, one large one they declined.
    await decideRefunds(started.database.url, [
      ...[11, 17, 23, 29, 31, 37].map((amount, index) => ({
        resource: `zeta:${index}`,
        amount,
        decision: { action: "approve", reviewer: "rita@test.example" } as const,
      })),
      { resource: "zeta:9", amount: 900, decision: { action: "decline", reviewer: "rita@test.example", reason: "too large" } },
    ]);
  }, 300_000);

  afterAll(async () => {
    if (started) await stopSignedInConsole(started);
  });

  async function stored() {
    const db = await getDb(started.database.url);
    return { rules: await db.rule.findMany(), versions: await db.ruleVersion.findMany(), decisions: await db.toolCallDecision.count() };
  }

  const admin = () => started.cookies.admin;
  const rule = { name: "small zeta refunds", agentId: "refunds", toolName: "issueRefund", effect: "approve" };

  it("keeps everybody but admins out, and refuses bad input with 400, changing nothing", async () => {
    const { api, cookies } = started;
    const before = await stored();
    for (const [path, body] of [
      [SUGGESTIONS, {}],
      [ACCEPT, { rule }],
      [BACKTEST, { rule }],
    ] as const) {
      expect((await api("POST", path, { body })).status, path).toBe(401);
      for (const cookie of [cookies.reviewer, cookies.support]) {
        expect(await api("POST", path, { cookie, body }), path).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
      }
    }
    const refused: Array<[string, unknown, RegExp]> = [
      [SUGGESTIONS, { days: 0 }, /at least 1 day/],
      [SUGGESTIONS, { days: 1000 }, /at most 90 days/],
      [SUGGESTIONS, { days: 1.5 }, /whole number of days/],
      [SUGGESTIONS, { maxWrongShare: 2 }, /from 0 to 1/],
      [SUGGESTIONS, { maxWrongShare: -0.1 }, /from 0 to 1/],
      [SUGGESTIONS, { minCalls: 0 }, /minCalls/],
      [SUGGESTIONS, { threshold: 0 }, /unknown field: threshold/],
      [BACKTEST, { rule, days: 0 }, /at least 1 day/],
      [BACKTEST, { rule, days: 1000 }, /at most 90 days/],
      [BACKTEST, { rule, include: "robots" }, /include/],
      [BACKTEST, { rule: { ...rule, extra: 1 } }, /unknown field: rule.extra/],
      [BACKTEST, { rule, extra: 1 }, /unknown field: extra/],
      [ACCEPT, { rule: { ...rule, enabled: true } }, /created disabled/],
      [ACCEPT, { rule, days: 0 }, /at least 1 day/],
      [ACCEPT, { rule, maxWrongShare: 0 }, /unknown field: maxWrongShare/],
      [ACCEPT, { rule: { ...rule, conditions: [{ path: "amount", op: "matches", value: "(a" }] } }, /pattern/],
    ];
    for (const [path, body, message] of refused) {
      const answer = await api("POST", path, { cookie: admin(), body });
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(answer.body.error?.code).toBe("invalid_input");
      expect(answer.body.error?.message, `${path} ${JSON.stringify(body)}`).toMatch(message);
    }
    expect(await stored()).toEqual(before);
  });

  it("creates a suggestion disabled, its backtest kept with version 1 and repeated by a backtest of the saved rule", async () => {
    const { api } = started;
    const found = await api("POST", SUGGESTIONS, { cookie: admin(), body: { minCalls: 5 } });
    expect(found.status).toBe(200);
    const proposals = found.body.data.proposals as RuleProposal[];
    const approving = proposals.find((proposal) => proposal.rule.effect === "approve");
    expect(approving?.rule).toMatchObject({ agentId: "refunds", toolName: "issueRefund", enabled: false, callKind: "approval" });
    expect(approving!.rule.conditions).toContainEqual({ path: "amount", op: "<=", value: 37 });
    expect(approving!.backtest).toMatchObject({ days: 30, matched: 6, agreed: 6, disagreed: 0, waitsUnknown: 0 });

    const created = await api("POST", ACCEPT, { cookie: admin(), body: { rule: approving!.rule, days: 30 } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ ...approving!.rule, enabled: false, version: 1 });
    const versions = await api("GET", `/api/admin/rules/${created.body.data.id}`, { cookie: admin() });
    const [first] = versions.body.data.versions;
    expect(first).toMatchObject({ version: 1, change: "created", rule: { enabled: false } });
    const { from: _from, to: _to, ...kept } = first.backtest;
    const { from: _pFrom, to: _pTo, ...proposed } = approving!.backtest;
    expect(kept).toEqual(proposed);
    // The saved rule's own backtest says the same; it is no longer suggested (a rule like it exists).
    const { position: _position, id: _id, version: _version, trustedBy: _trustedBy, ...saved } = created.body.data;
    const again = await api("POST", BACKTEST, { cookie: admin(), body: { rule: saved, days: 30 } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ matched: 6, agreed: 6, disagreed: 0, waitSavedMs: proposed.waitSavedMs });
    const after = await api("POST", SUGGESTIONS, { cookie: admin(), body: { minCalls: 5 } });
    expect((after.body.data.proposals as RuleProposal[]).map((proposal) => proposal.key)).not.toContain(approving!.key);
    expect(await (await getDb(started.database.url)).rule.count()).toBe(1);
  });
});
