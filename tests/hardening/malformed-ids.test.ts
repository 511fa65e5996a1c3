/**
 * A malformed id in a route's path is a 4xx with the JSON error shape, never a 500, on SQLite and
 * PostgreSQL over real HTTP: a NUL (it reached PostgreSQL's query: 500), escapes that are not UTF-8
 * (`%ED%A0%80`, a lone surrogate encoded, and `%FF`: Next failed to decode them before any handler
 * of ours ran and answered a plain-text 500), and an id longer than any. Every dynamic route is read
 * from the file system (app/api/**\/[…]/route.ts), each of its methods with each of its segments.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "../../lib/db/client.ts";
import { ERROR_STATUS, type ErrorCode } from "../../lib/errors.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { configApi } from "../helpers/config-api.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { apiRoutes, fillPattern } from "./api-routes.ts";
import { storedState } from "./stored-state.ts";

/** Each malformed id as it is sent: already percent-encoded. */
const MALFORMED = {
  "a NUL": "rule%00x",
  "an encoded lone surrogate": "%ED%A0%80",
  "a byte that is not UTF-8": "%FF",
  "a lone percent sign": "100%",
  "an id longer than any": "x".repeat(4_000),
};

/** A body each write would take with a well-formed id: the id is the only thing wrong. */
const BODIES: Record<string, unknown> = {
  "PUT /api/admin/review-settings/[agentId]": { onlyAssigneeDecides: true },
  "PUT /api/admin/rules/[id]": { name: "renamed", effect: "ask" },
  "DELETE /api/admin/rules/[id]": {},
  "POST /api/admin/rules/[id]/apply": {},
  "PATCH /api/admin/users/[id]": { role: "support" },
  "PATCH /api/admin/webhooks/[id]": { enabled: false },
  "DELETE /api/admin/tokens/[id]": {},
  "PATCH /api/admin/service-accounts/[id]": { disabled: true },
  "DELETE /api/profile/tokens/[id]": {},
  "POST /api/admin/webhooks/[id]/deliveries/[deliveryId]/retry": {},
  "POST /api/auth/[...all]": {},
  "PUT /api/auth/[...all]": {},
  "PATCH /api/auth/[...all]": {},
  "DELETE /api/auth/[...all]": {},
};

const dynamicRoutes = apiRoutes().filter((route) => route.params.length > 0);

describe("the dynamic routes", () => {
  it("are found on the file system, each write with a body that needs no id", () => {
    expect(dynamicRoutes.map((route) => route.pattern)).toContain("/api/admin/rules/[id]");
    const writes = dynamicRoutes.flatMap((route) =>
      route.methods.filter((method) => !["GET", "HEAD", "OPTIONS"].includes(method)).map((method) => `${method} ${route.pattern}`),
    );
    expect(writes.sort()).toEqual(Object.keys(BODIES).sort());
  });
});

describe.each(["sqlite", "postgres"] as const)("malformed ids in the path on %s", { timeout: 300_000 }, (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let cookie: string;
  let api: ReturnType<typeof configApi>;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [started, admin] = await Promise.all([startConsoleServer(database.url), createTestAccount(database.url, "admin", "Ada")]);
    server = started;
    api = configApi(server);
    cookie = await sessionCookie(database.url, admin);
    expect((await api("POST", "/api/admin/rules", { cookie, body: { name: "kept", effect: "ask" } })).status).toBe(201);
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  it("answers each method of each dynamic route with a 4xx in the JSON error shape, storing nothing", async () => {
    const before = await storedState(database.url);
    const wrong: string[] = [];
    let sent = 0;
    for (const route of dynamicRoutes) {
      for (const method of route.methods) {
        for (const param of route.params) {
          for (const [name, id] of Object.entries(MALFORMED)) {
            // The other segments well-formed (a webhook's id is a UUID), this one malformed.
            const values = Object.fromEntries(route.params.map((other) => [other, other === param ? id : randomUUID()]));
            const url = fillPattern(route.pattern, values, { raw: true });
            const body = BODIES[`${method} ${route.pattern}`];
            sent++;
            const response = await fetch(`${server.url}${url}`, {
              method,
              headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json", origin: server.url }) },
              body: body === undefined ? undefined : JSON.stringify(body),
            });
            const text = await response.text();
            const answer = parsed(text);
            const code = answer?.error?.code as ErrorCode | undefined;
            const expected = route.pattern.startsWith("/api/auth/") ? ["invalid_input", "not_found"] : ["invalid_input"];
            if (
              answer?.ok !== false ||
              !code ||
              !expected.includes(code) ||
              ERROR_STATUS[code] !== response.status ||
              !answer.error?.message
            ) {
              wrong.push(`${method} ${route.pattern} with ${name} as [${param}]: ${response.status} ${text.slice(0, 160)}`);
            }
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(sent).toBeGreaterThan(60);
    expect(await storedState(database.url)).toEqual(before);
  });

  it("answers such an id on a page with the page's own not-found, never a 500", async () => {
    for (const id of Object.values(MALFORMED)) {
      const response = await fetch(`${server.url}/runs/${id}`, { headers: { cookie } });
      expect(response.status, id.slice(0, 20)).toBe(404);
      expect(await response.text()).toContain("No run with this id");
    }
  });
});

function parsed(text: string): { ok?: boolean; error?: { code?: string; message?: string } } | undefined {
  try {
    return JSON.parse(text) as { ok?: boolean; error?: { code?: string; message?: string } };
  } catch {
    return undefined;
  }
}
