/**
 * Webhook endpoints over the JSON API (/api/admin/webhooks…), against real console servers on
 * SQLite and PostgreSQL: the same permissions, checks and store as /admin/webhooks' server actions.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { listDeliveries, listEndpoints } from "../../lib/webhooks/endpoints.ts";
import { startSignedInConsole, stopSignedInConsole, type SignedInConsole } from "../helpers/config-api.ts";
import { callServerAction, type ConsoleServer } from "../helpers/console-server.ts";
import { type TestDatabase } from "../helpers/databases.ts";

/** A public address (TEST-NET-3): it passes the private-address check without a DNS lookup. */
const URL_OK = "http://203.0.113.10/Hooks";
const NEW = { url: URL_OK, eventTypes: ["call.waiting"], slack: false };

describe.each(["sqlite", "postgres"] as const)("webhooks over the JSON API on %s", { timeout: 120_000 }, (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let api: SignedInConsole["api"];
  let cookies: SignedInConsole["cookies"];
  let adminEmail: string;

  beforeAll(async () => {
    let accounts: SignedInConsole["accounts"];
    ({ database, server, api, cookies, accounts } = await startSignedInConsole(kind, "Wendy"));
    adminEmail = accounts.admin.email;
  }, 150_000);

  afterAll(() => stopSignedInConsole({ database, server }));

  /** Every endpoint as the store holds it, secrets included: what a refused request must leave alone. */
  const stored = async () => (await getDb(database.url)).webhookEndpoint.findMany({ orderBy: { id: "asc" } });

  it("adds an endpoint (201) with its secret this once; the list and the page's reader show it without", async () => {
    const created = await api("POST", "/api/admin/webhooks", { cookie: cookies.admin, body: NEW });
    expect(created).toMatchObject({ status: 201, body: { ok: true, data: { url: "http://203.0.113.10/Hooks", enabled: true } } });
    const { id, secret } = created.body.data as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);

    const [endpoint] = (await listEndpoints(database.url)).filter((one) => one.id === id);
    expect(endpoint).toMatchObject({
      url: "http://203.0.113.10/Hooks",
      eventTypes: ["call.waiting"],
      enabled: true,
      createdBy: adminEmail,
    });
    const listed = await api("GET", "/api/admin/webhooks", { cookie: cookies.admin });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ id, url: endpoint!.url, createdBy: adminEmail })]));
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(JSON.stringify(listed.body)).not.toContain("whsec_");
  });

  it("refuses anonymous callers (401), reviewers and support (403) on every route, changing nothing", async () => {
    const before = await stored();
    const id = before[0]?.id ?? randomUUID();
    const routes: Array<[string, string, unknown]> = [
      ["GET", "/api/admin/webhooks", undefined],
      ["POST", "/api/admin/webhooks", { ...NEW, url: "http://203.0.113.11/" }],
      ["PATCH", `/api/admin/webhooks/${id}`, { enabled: false }],
      ["GET", `/api/admin/webhooks/${id}/deliveries`, undefined],
      ["POST", `/api/admin/webhooks/${id}/deliveries/${randomUUID()}/retry`, {}],
    ];
    for (const [method, path, body] of routes) {
      expect(await api(method, path, { body }), `${method} ${path}`).toMatchObject({
        status: 401,
        body: { ok: false, error: { code: "unauthenticated" } },
      });
      for (const role of ["reviewer", "support"] as const) {
        const refused = await api(method, path, { body, cookie: cookies[role] });
        expect(refused, `${role} ${method} ${path}`).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
        expect(refused.body.error!.message).toContain(`Your role (${role}) may not manage webhooks`);
      }
    }
    expect(await stored()).toEqual(before);
  });

  it("refuses cross-site and non-JSON writes before anything else (403 cross_site)", async () => {
    const before = await stored();
    expect(await api("POST", "/api/admin/webhooks", { cookie: cookies.admin, body: NEW, origin: "https://evil.example" })).toMatchObject({
      status: 403,
      body: { error: { code: "cross_site" } },
    });
    // Cross-site and anonymous: still cross_site, the session is not even looked at.
    expect(await api("POST", "/api/admin/webhooks", { body: NEW, origin: "https://evil.example" })).toMatchObject({ status: 403 });
    expect(
      await api("POST", "/api/admin/webhooks", {
        cookie: cookies.admin,
        raw: `url=${encodeURIComponent(URL_OK)}&eventTypes=call.waiting`,
        contentType: "application/x-www-form-urlencoded",
      }),
    ).toMatchObject({ status: 403, body: { error: { code: "cross_site" } } });
    expect(await stored()).toEqual(before);
  });

  it.each([
    ["malformed JSON", { raw: '{"url": "http://203.0.113.10/",' }, /not valid JSON/],
    ["an unknown field", { body: { ...NEW, secret: "whsec_mine" } }, /unknown field: secret/],
    ["slack as text", { body: { ...NEW, slack: "true" } }, /slack must be true or false/],
    ["eventTypes as text", { body: { ...NEW, eventTypes: "call.waiting" } }, /eventTypes/],
    ["an unknown event type", { body: { ...NEW, eventTypes: ["call.sneezed"] } }, /eventTypes/],
    ["a NUL in the URL", { body: { ...NEW, url: "http://203.0.113.10/a\u0000b" } }, /url contains a NUL/],
    ["a private address", { body: { ...NEW, url: "http://127.0.0.1:3000/hook" } }, /private|loopback|not allowed/i],
    ["an array", { body: [NEW] }, /./],
    ["a language the console has no catalog for", { body: { ...NEW, slack: true, locale: "fr" } }, /locale must be one of en, ko, zh-TW/],
  ])("refuses %s with 400 invalid_input and stores nothing", async (_, request, message) => {
    const before = await stored();
    const refused = await api("POST", "/api/admin/webhooks", { cookie: cookies.admin, ...request });
    expect(refused).toMatchObject({ status: 400, body: { ok: false, error: { code: "invalid_input" } } });
    expect(refused.body.error!.message).toMatch(message);
    expect(await stored()).toEqual(before);
  });

  it("disables and enables an endpoint; an unknown id is 404, a bad body 400, and nothing changes then", async () => {
    const { id } = (await api("POST", "/api/admin/webhooks", { cookie: cookies.admin, body: NEW })).body.data as { id: string };
    const patch = (body: unknown, target = id) => api("PATCH", `/api/admin/webhooks/${target}`, { cookie: cookies.admin, body });
    expect(await patch({ enabled: false })).toMatchObject({ status: 200, body: { ok: true, data: { id, enabled: false } } });
    expect((await listEndpoints(database.url)).find((endpoint) => endpoint.id === id)?.enabled).toBe(false);

    const before = await stored();
    expect(await patch({ enabled: true }, randomUUID())).toMatchObject({ status: 404, body: { error: { code: "webhook_not_found" } } });
    expect(await patch({ enabled: true }, "not-a-uuid")).toMatchObject({ status: 400, body: { error: { code: "invalid_input" } } });
    for (const body of [{ enabled: "true" }, { enabled: 1 }, {}, { enabled: true, id }, { enabled: true, url: URL_OK }]) {
      expect(await patch(body), JSON.stringify(body)).toMatchObject({ status: 400, body: { error: { code: "invalid_input" } } });
    }
    expect(await stored()).toEqual(before);
    // The page's own action says the same of an unknown endpoint: one rule, both faces.
    const action = await callServerAction(server, "updateWebhook", [{ id: randomUUID(), enabled: true }], {
      cookie: cookies.admin,
      page: "/admin/webhooks",
    });
    expect(action.result).toMatchObject({ ok: false, error: { code: "webhook_not_found" } });

    expect(await patch({ enabled: true })).toMatchObject({ status: 200, body: { data: { enabled: true } } });
    expect((await listEndpoints(database.url)).find((endpoint) => endpoint.id === id)?.enabled).toBe(true);
  });

  it("keeps the language of an endpoint's Slack messages: English unless chosen, set when added or later, only a catalog's", async () => {
    const english = (await api("POST", "/api/admin/webhooks", { cookie: cookies.admin, body: { ...NEW, slack: true } })).body.data;
    expect(english).toMatchObject({ slack: true, locale: "en" });
    const added = await api("POST", "/api/admin/webhooks", { cookie: cookies.admin, body: { ...NEW, slack: true, locale: "ko" } });
    expect(added).toMatchObject({ status: 201, body: { data: { slack: true, locale: "ko" } } });
    const id = added.body.data.id as string;
    const localeOf = async (target: string) => (await listEndpoints(database.url)).find((endpoint) => endpoint.id === target)?.locale;
    expect(await localeOf(id)).toBe("ko");

    const patch = (body: unknown) => api("PATCH", `/api/admin/webhooks/${id}`, { cookie: cookies.admin, body });
    expect(await patch({ locale: "zh-TW" })).toMatchObject({ status: 200, body: { data: { id, locale: "zh-TW", enabled: true } } });
    expect(await localeOf(id)).toBe("zh-TW");
    const before = await stored();
    for (const locale of ["fr", "zh-CN", "KO", "", 1, null]) {
      const refused = await patch({ locale });
      expect(refused, JSON.stringify(locale)).toMatchObject({ status: 400, body: { error: { code: "invalid_input" } } });
    }
    expect((await patch({ locale: "fr" })).body.error!.message).toMatch(/locale must be one of en, ko, zh-TW/);
    expect(await stored()).toEqual(before);
    // The page's action sets it the same way.
    const action = await callServerAction(server, "updateWebhook", [{ id, locale: "en" }], {
      cookie: cookies.admin,
      page: "/admin/webhooks",
    });
    expect(action.result).toMatchObject({ ok: true, data: { id, locale: "en" } });
    expect(await localeOf(english.id as string)).toBe("en");
    expect(await localeOf(id)).toBe("en");
  });

  it("lists an endpoint's deliveries and retries one of them; unknown ids are 404, a delivery being sent is refused", async () => {
    const { id } = (await api("POST", "/api/admin/webhooks", { cookie: cookies.admin, body: NEW })).body.data as { id: string };
    const other = (await api("POST", "/api/admin/webhooks", { cookie: cookies.admin, body: NEW })).body.data.id as string;
    // Disabled, so the server's own worker leaves the deliveries alone while the test looks at them.
    for (const endpoint of [id, other])
      await api("PATCH", `/api/admin/webhooks/${endpoint}`, { cookie: cookies.admin, body: { enabled: false } });
    const db = await getDb(database.url);
    const longAgo = new Date(Date.now() - 86_400_000);
    const event = await db.outboxEvent.create({
      data: { id: `evt_${randomUUID()}`, type: "call.waiting", payload: "{}", createdAt: longAgo },
    });
    const delivery = (leaseUntil: Date | null) => ({
      id: randomUUID(),
      endpointId: id,
      eventId: event.id,
      state: "failed",
      attempts: 12,
      nextAttemptAt: longAgo,
      leaseUntil,
      createdAt: longAgo,
      updatedAt: longAgo,
    });
    const failed = await db.webhookDelivery.create({ data: delivery(null) });

    const listed = await api("GET", `/api/admin/webhooks/${id}/deliveries`, { cookie: cookies.admin });
    expect(listed).toMatchObject({
      status: 200,
      body: { ok: true, data: [{ id: failed.id, state: "failed", attempts: 12, eventType: "call.waiting" }] },
    });
    expect(await api("GET", `/api/admin/webhooks/${randomUUID()}/deliveries`, { cookie: cookies.admin })).toMatchObject({
      status: 404,
      body: { error: { code: "webhook_not_found" } },
    });
    expect(await api("GET", `/api/admin/webhooks/${id}/deliveries?take=5`, { cookie: cookies.admin })).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_input" } },
    });

    const retry = (endpoint: string, deliveryId: string, body: unknown = {}) =>
      api("POST", `/api/admin/webhooks/${endpoint}/deliveries/${deliveryId}/retry`, { cookie: cookies.admin, body });
    const rows = () => db.webhookDelivery.findMany({ orderBy: { id: "asc" } });
    const before = await rows();
    expect(await retry(id, randomUUID())).toMatchObject({ status: 404, body: { error: { code: "webhook_not_found" } } });
    expect(await retry(other, failed.id)).toMatchObject({ status: 404, body: { error: { code: "webhook_not_found" } } });
    expect(await retry(id, failed.id, { now: true })).toMatchObject({ status: 400, body: { error: { code: "invalid_input" } } });
    expect(await retry(id, failed.id, { deliveryId: failed.id })).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_input" } },
    });
    expect(await api("POST", `/api/admin/webhooks/${id}/deliveries/${failed.id}/retry`, { cookie: cookies.admin, raw: "" })).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_input" } },
    });
    expect(await rows()).toEqual(before);

    const asked = Date.now();
    expect(await retry(id, failed.id)).toMatchObject({ status: 200, body: { ok: true, data: { endpointId: id, deliveryId: failed.id } } });
    const [retried] = (await listDeliveries(id, database.url)).filter((one) => one.id === failed.id);
    expect(retried).toMatchObject({ state: "pending", leaseUntil: null });
    expect(retried!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(asked - 5_000);

    const sending = await db.webhookDelivery.create({
      data: { ...delivery(new Date(Date.now() + 60_000)), eventId: event.id, endpointId: other },
    });
    const busy = await retry(other, sending.id);
    expect(busy).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_input", message: expect.stringContaining("being sent right now") } },
    });
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: sending.id } })).toEqual(sending);
  });
});
