/**
 * Text no database stores as sent — a NUL (PostgreSQL's `text` refuses it: a 500) or a lone UTF-16
 * surrogate (both drivers store U+FFFD instead) — in any field of any JSON route or server action is
 * refused with `400 invalid_input` and changes nothing, on SQLite and PostgreSQL, over real HTTP.
 *
 * The routes are read from the file system (app/api/**\/route.ts) and the server actions from the
 * build's manifest: one without a sample (text-samples.ts) fails the test, so a new one is walked
 * too. Each sample is a valid request; every string in it (values, and the text inside JSON text
 * fields such as resume data) is sent once with a NUL and once with a lone surrogate, which JSON
 * carries as the escape `\ud800` (a raw one cannot be UTF-8).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { configApi } from "../helpers/config-api.ts";
import { callServerAction, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, shippingRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { consoleDocsText } from "../docs/doc-files.ts";
import { apiRoutes, fillPattern, routeKeys } from "./api-routes.ts";
import { storedState } from "./stored-state.ts";
import { ACTIONS, ROUTES, type Fixtures } from "./text-samples.ts";
import { queryString, variantsOf } from "./text-variants.ts";

const BAD_TEXT = { NUL: "\u0000", "a lone surrogate": "\ud800" } as const;

describe("every route and server action refuses what a database cannot store", () => {
  it("has a sample, or says why none, for every route on the file system and every server action of the build", () => {
    expect(Object.keys(ROUTES).sort()).toEqual(routeKeys());
    const manifest = JSON.parse(readFileSync(path.resolve(".next/server/server-reference-manifest.json"), "utf8")) as {
      node: Record<string, { exportedName?: string }>;
    };
    expect(Object.keys(ACTIONS).sort()).toEqual(
      Object.values(manifest.node)
        .map((entry) => entry.exportedName)
        .sort(),
    );
  });

  it("finds every route on the file system documented in the docs", () => {
    const readme = consoleDocsText(process.cwd());
    // A segment is documented by any value (`<id>`, `refunds`); a catch-all by any path under it.
    const documented = (pattern: string) =>
      new RegExp(
        `${pattern
          .split(/(\[[^\]]+\])/)
          .map((part) =>
            part.startsWith("[...") ? "\\S+" : part.startsWith("[") ? "[^/\\s]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
          )
          .join("")}(?![\\w/-])`,
      ).test(readme);
    expect(
      apiRoutes()
        .map(({ pattern }) => pattern)
        .filter((pattern) => !documented(pattern)),
    ).toEqual([]);
  });
});

describe.each(["sqlite", "postgres"] as const)("text fields on %s", { timeout: 600_000 }, (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let cookie: string;
  let fixtures: Fixtures;
  let api: ReturnType<typeof configApi>;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [started, admin, target] = await Promise.all([
      startConsoleServer(database.url, { REFUSALS_PER_MINUTE: "100000", AUTH_SIGN_IN_ATTEMPTS_PER_MINUTE: "100000" }),
      createTestAccount(database.url, "admin", "Ada"),
      createTestAccount(database.url, "reviewer", "Tess"),
    ]);
    // One after the other: two Mastra instances setting up one fresh PostgreSQL store at once may collide.
    const refund = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-6201", "80.00 EUR"));
    const shipping = await suspendDemoRun(database.url, "shipping", shippingRequest("ORD-6202"));
    server = started;
    api = configApi(server);
    cookie = await sessionCookie(database.url, admin);
    const rule = await api("POST", "/api/admin/rules", { cookie, body: { name: "kept", effect: "ask" } });
    const endpoint = await api("POST", "/api/admin/webhooks", {
      cookie,
      body: { url: "http://203.0.113.10/kept", eventTypes: ["call.expired"], slack: false },
    });
    expect([rule.status, endpoint.status]).toEqual([201, 201]);
    fixtures = { admin, refund, shipping, ruleId: rule.body.data.id, endpointId: endpoint.body.data.id, userId: target.id };
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  it("answers every JSON route's every text field holding a NUL or a lone surrogate with 400 invalid_input, storing nothing", async () => {
    const before = await storedState(database.url);
    const wrong: string[] = [];
    let sent = 0;
    for (const [key, samples] of Object.entries(ROUTES)) {
      if (typeof samples === "string") continue;
      const [method, pattern] = key.split(" ") as [string, string];
      for (const sample of samples(fixtures)) {
        for (const [name, bad] of Object.entries(BAD_TEXT)) {
          for (const variant of variantsOf(sample, bad)) {
            const query = variant.sample.query ? `?${queryString(variant.sample.query)}` : "";
            const url = `${fillPattern(pattern, variant.sample.path ?? {})}${query}`;
            sent++;
            let answer;
            try {
              answer = await api(method, url, { cookie, body: variant.sample.body });
            } catch (error) {
              wrong.push(`${key}, ${variant.where} with ${name}: ${(error as Error).message}`);
              continue;
            }
            if (
              answer.status !== 400 ||
              answer.body.ok !== false ||
              answer.body.error?.code !== "invalid_input" ||
              !answer.body.error.message
            ) {
              wrong.push(`${key}, ${variant.where} with ${name}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
            }
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(sent).toBeGreaterThan(150);
    expect(await storedState(database.url)).toEqual(before);
  });

  it("answers every server action's every text field holding a NUL or a lone surrogate with invalid_input, storing nothing", async () => {
    const before = await storedState(database.url);
    const wrong: string[] = [];
    let sent = 0;
    for (const [name, input] of Object.entries(ACTIONS)) {
      if (typeof input === "string") continue;
      for (const [badName, bad] of Object.entries(BAD_TEXT)) {
        for (const variant of variantsOf({ body: input(fixtures) }, bad)) {
          sent++;
          const { result, status, text } = await callServerAction(server, name, [variant.sample.body], { cookie });
          if (result?.ok !== false || result.error?.code !== "invalid_input") {
            wrong.push(`${name}, ${variant.where} with ${badName}: ${status} ${JSON.stringify(result) ?? text.slice(0, 200)}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(sent).toBeGreaterThan(80);
    expect(await storedState(database.url)).toEqual(before);
  });
});
