/**
 * Expiry rules and review settings over the JSON API (/api/admin/expiry-rules, /api/admin/review-settings),
 * against real console servers on SQLite and PostgreSQL: the same permissions, checks and store as
 * /admin/expiry and /admin/agents.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listReviewSettings } from "../../lib/assignments/review-settings.ts";
import { getDb } from "../../lib/db/client.ts";
import { listExpiryRules } from "../../lib/settings/expiry-rules.ts";
import { startSignedInConsole, stopSignedInConsole, type SignedInConsole } from "../helpers/config-api.ts";
import { callServerAction, type ConsoleServer } from "../helpers/console-server.ts";
import { type TestDatabase } from "../helpers/databases.ts";

const RULE = { agentId: "refunds", toolName: "issueRefund", afterMinutes: 30 };

describe.each(["sqlite", "postgres"] as const)("console rules over the JSON API on %s", { timeout: 120_000 }, (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let api: SignedInConsole["api"];
  let cookies: SignedInConsole["cookies"];
  let adminEmail: string;

  beforeAll(async () => {
    let accounts: SignedInConsole["accounts"];
    ({ database, server, api, cookies, accounts } = await startSignedInConsole(kind, "Ada"));
    adminEmail = accounts.admin.email;
  }, 150_000);

  afterAll(() => stopSignedInConsole({ database, server }));

  const stored = async () => {
    const db = await getDb(database.url);
    return {
      rules: await db.expiryRule.findMany({ orderBy: [{ agentId: "asc" }, { toolName: "asc" }] }),
      settings: await db.agentReviewSetting.findMany(),
    };
  };

  it("saves, lists and deletes an expiry rule, as the page's reader sees it", async () => {
    expect(await api("GET", "/api/admin/expiry-rules", { cookie: cookies.admin })).toMatchObject({
      status: 200,
      body: { ok: true, data: [] },
    });
    const saved = await api("POST", "/api/admin/expiry-rules", { cookie: cookies.admin, body: { ...RULE, mode: "mark", warnMinutes: 10 } });
    expect(saved).toMatchObject({ status: 200, body: { ok: true, data: { ...RULE, mode: "mark", warnMinutes: 10 } } });
    expect(await listExpiryRules(database.url)).toMatchObject([{ ...RULE, mode: "mark", warnMinutes: 10, updatedBy: adminEmail }]);
    // Saving the same (agent, tool) replaces it; a rule for the whole agent is a rule of its own.
    await api("POST", "/api/admin/expiry-rules", { cookie: cookies.admin, body: { ...RULE, afterMinutes: "45" } });
    await api("POST", "/api/admin/expiry-rules", { cookie: cookies.admin, body: { agentId: "refunds", afterMinutes: 90 } });
    const listed = await api("GET", "/api/admin/expiry-rules", { cookie: cookies.admin });
    expect(listed.body.data).toMatchObject([
      { agentId: "refunds", toolName: "", afterMinutes: 90, mode: "decline", warnMinutes: null },
      { ...RULE, afterMinutes: 45, mode: "decline", warnMinutes: null, updatedBy: adminEmail },
    ]);

    expect(await api("DELETE", "/api/admin/expiry-rules", { cookie: cookies.admin, body: { agentId: "refunds" } })).toMatchObject({
      status: 200,
      body: { ok: true, data: { agentId: "refunds", toolName: "" } },
    });
    expect((await listExpiryRules(database.url)).map((rule) => rule.toolName)).toEqual(["issueRefund"]);
  });

  it("refuses anonymous callers (401), reviewers and support (403) on every route, changing nothing", async () => {
    const before = await stored();
    const routes: Array<[string, string, unknown]> = [
      ["GET", "/api/admin/expiry-rules", undefined],
      ["POST", "/api/admin/expiry-rules", { ...RULE, afterMinutes: 5 }],
      ["DELETE", "/api/admin/expiry-rules", { agentId: RULE.agentId, toolName: RULE.toolName }],
      ["GET", "/api/admin/review-settings", undefined],
      ["PUT", "/api/admin/review-settings/refunds", { onlyAssigneeDecides: true }],
    ];
    for (const [method, path, body] of routes) {
      expect(await api(method, path, { body }), `${method} ${path}`).toMatchObject({
        status: 401,
        body: { error: { code: "unauthenticated" } },
      });
      for (const role of ["reviewer", "support"] as const) {
        expect(await api(method, path, { body, cookie: cookies[role] }), `${role} ${method} ${path}`).toMatchObject({
          status: 403,
          body: { error: { code: "forbidden", message: expect.stringContaining("may not change the console's rules") } },
        });
      }
      if (body !== undefined) {
        expect(await api(method, path, { body, cookie: cookies.admin, origin: "https://evil.example" })).toMatchObject({
          status: 403,
          body: { error: { code: "cross_site" } },
        });
      }
    }
    expect(await stored()).toEqual(before);
  });

  it.each([
    ["malformed JSON", { raw: '{"agentId":"refunds","afterMinutes":' }, /not valid JSON/],
    ["an unknown field", { body: { ...RULE, minutes: 5 } }, /unknown field: minutes/],
    ["afterMinutes: true", { body: { ...RULE, afterMinutes: true } }, /afterMinutes/],
    ["afterMinutes as a fraction", { body: { ...RULE, afterMinutes: "2.5" } }, /afterMinutes/],
    ["afterMinutes: 0", { body: { ...RULE, afterMinutes: 0 } }, /at least 1 minute/],
    ["a NUL in the tool", { body: { ...RULE, toolName: "issue\u0000Refund" } }, /NUL/],
    ["an agent the console does not serve", { body: { ...RULE, agentId: "no-such-agent" } }, /no-such-agent/],
    ["a warning after the expiry", { body: { ...RULE, warnMinutes: 30 } }, /The warning must come before the expiry/],
    ["a mode of its own", { body: { ...RULE, mode: "ignore" } }, /Mode must be "decline" or "mark"/],
  ])("refuses an expiry rule with %s (400 invalid_input), changing nothing", async (_, request, message) => {
    const before = await stored();
    const refused = await api("POST", "/api/admin/expiry-rules", { cookie: cookies.admin, ...request });
    expect(refused).toMatchObject({ status: 400, body: { ok: false, error: { code: "invalid_input" } } });
    expect(refused.body.error!.message).toMatch(message);
    expect(await stored()).toEqual(before);
  });

  it("answers 404 for deleting a rule that does not exist, on the route and the page's action alike", async () => {
    const before = await stored();
    expect(
      await api("DELETE", "/api/admin/expiry-rules", { cookie: cookies.admin, body: { agentId: "refunds", toolName: "sendEmail" } }),
    ).toMatchObject({
      status: 404,
      body: { error: { code: "expiry_rule_not_found", message: expect.stringContaining("sendEmail") } },
    });
    const action = await callServerAction(server, "deleteExpiryRule", [{ agentId: "refunds", toolName: "sendEmail" }], {
      cookie: cookies.admin,
      page: "/admin/expiry",
    });
    expect(action.result).toMatchObject({ ok: false, error: { code: "expiry_rule_not_found" } });
    for (const body of [{ agentId: "refunds", toolName: RULE.toolName, afterMinutes: 30 }, { toolName: RULE.toolName }, { agentId: 5 }]) {
      expect(await api("DELETE", "/api/admin/expiry-rules", { cookie: cookies.admin, body }), JSON.stringify(body)).toMatchObject({
        status: 400,
        body: { error: { code: "invalid_input" } },
      });
    }
    expect(await stored()).toEqual(before);
  });

  it("turns 'only the assignee decides' on and off for an agent, as /admin/agents shows it", async () => {
    const put = (agentId: string, body: unknown) => api("PUT", `/api/admin/review-settings/${agentId}`, { cookie: cookies.admin, body });
    expect(await put("refunds", { onlyAssigneeDecides: true })).toMatchObject({
      status: 200,
      body: { ok: true, data: { agentId: "refunds", onlyAssigneeDecides: true } },
    });
    expect(await listReviewSettings(database.url)).toMatchObject([
      { agentId: "refunds", onlyAssigneeDecides: true, updatedBy: adminEmail },
    ]);
    const listed = await api("GET", "/api/admin/review-settings", { cookie: cookies.admin });
    expect(listed.status).toBe(200);
    const byId = new Map((listed.body.data as Array<{ id: string }>).map((agent) => [agent.id, agent]));
    expect(byId.get("refunds")).toMatchObject({ kind: "agent", onlyAssigneeDecides: true, updatedBy: adminEmail });
    expect(byId.get("shipping")).toMatchObject({ onlyAssigneeDecides: false, updatedBy: null });
    expect(await put("refunds", { onlyAssigneeDecides: false })).toMatchObject({
      status: 200,
      body: { data: { onlyAssigneeDecides: false } },
    });
    expect(await listReviewSettings(database.url)).toMatchObject([{ agentId: "refunds", onlyAssigneeDecides: false, allowTrust: true }]);
    // "Approve and trust" per agent: on unless turned off; either switch alone leaves the other as it was.
    expect(byId.get("shipping")).toMatchObject({ allowTrust: true });
    expect(await put("refunds", { allowTrust: false })).toMatchObject({
      status: 200,
      body: { data: { agentId: "refunds", onlyAssigneeDecides: false, allowTrust: false } },
    });
    expect(await put("shipping", { allowTrust: false })).toMatchObject({ status: 200, body: { data: { onlyAssigneeDecides: false } } });
    const again = await api("GET", "/api/admin/review-settings", { cookie: cookies.admin });
    expect(
      (again.body.data as Array<{ id: string; allowTrust: boolean }>)
        .filter((agent) => !agent.allowTrust)
        .map((agent) => agent.id)
        .sort(),
    ).toEqual(["refunds", "shipping"]);
    expect(await put("refunds", { onlyAssigneeDecides: true, allowTrust: true })).toMatchObject({
      body: { data: { onlyAssigneeDecides: true, allowTrust: true } },
    });
  });

  it.each([
    ["malformed JSON", "refunds", { raw: "{onlyAssigneeDecides: true}" }, /not valid JSON/],
    ["an unknown field", "refunds", { body: { onlyAssigneeDecides: true, everyone: false } }, /unknown field: everyone/],
    ["the agent in the body too", "refunds", { body: { onlyAssigneeDecides: true, agentId: "shipping" } }, /agentId/],
    ["a string for the switch", "refunds", { body: { onlyAssigneeDecides: "true" } }, /onlyAssigneeDecides must be true or false/],
    ["a missing switch", "refunds", { body: {} }, /onlyAssigneeDecides, allowTrust or both/],
    ["a number for trust", "refunds", { body: { allowTrust: 1 } }, /allowTrust must be true or false/],
    ["an agent the console does not serve", "no-such-agent", { body: { onlyAssigneeDecides: true } }, /no-such-agent/],
    ["a NUL in the agent", "ref%00unds", { body: { onlyAssigneeDecides: true } }, /NUL/],
  ])("refuses a review setting with %s (400 invalid_input), changing nothing", async (_, agentId, request, message) => {
    const before = await stored();
    const refused = await api("PUT", `/api/admin/review-settings/${agentId}`, { cookie: cookies.admin, ...request });
    expect(refused).toMatchObject({ status: 400, body: { ok: false, error: { code: "invalid_input" } } });
    expect(refused.body.error!.message).toMatch(message);
    expect(await stored()).toEqual(before);
  });
});
