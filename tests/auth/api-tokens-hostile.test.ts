/**
 * Hostile Authorization headers and tokens against a real console server on SQLite and PostgreSQL,
 * beside the cases of api-tokens.test.ts (wrong, revoked and replayed on a second instance, expired,
 * another scope, 10 KB): a token without its scheme, a NUL, bytes that are not ASCII, a header over
 * the server's limit, a revoked token however its header is spelled, and service accounts on every
 * admin route of the OpenAPI document. Each is refused, and the tokens, service accounts, decisions
 * and audit log hold nothing new but, on the decision route, one refusal row (tests/helpers/tokens.ts).
 * Headers fetch() will not send (a NUL, raw bytes) go over a socket as written.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDocument } from "../../lib/openapi/document.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { tokenRequests, type Answer } from "../helpers/tokens.ts";

const DECISION = JSON.stringify({ action: "approve", runId: "run-that-does-not-matter", toolCallId: "call-1" });

/**
 * One HTTP/1.1 request written byte for byte (the header lines as given, as UTF-8), and its status
 * and body. The socket stays open for writing until the server closes it (Connection: close): a
 * client that half-closes first may see its request dropped before it is answered.
 */
function rawRequest(server: ConsoleServer, method: string, path: string, headerLines: string[], body = ""): Promise<Answer> {
  const { hostname, port } = new URL(server.url);
  const payload = Buffer.from(body, "utf8");
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    "Connection: close",
    ...(body ? ["Content-Type: application/json", `Content-Length: ${payload.length}`] : []),
    ...headerLines,
  ];
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname, () =>
      socket.write(Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), payload])),
    );
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [headers = "", ...rest] = text.split("\r\n\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]);
      const raw = /transfer-encoding: chunked/i.test(headers) ? unchunked(rest.join("\r\n\r\n")) : rest.join("\r\n\r\n");
      let parsed: Answer["body"];
      try {
        parsed = JSON.parse(raw) as Answer["body"];
      } catch {
        parsed = { ok: false, error: { code: "(no JSON)", message: raw.slice(0, 200) } };
      }
      resolve({ status, body: parsed });
    });
  });
}

function unchunked(text: string): string {
  let out = "";
  let rest = text;
  for (;;) {
    const end = rest.indexOf("\r\n");
    const size = parseInt(rest.slice(0, end), 16);
    if (!size) return out;
    out += rest.slice(end + 2, end + 2 + size);
    rest = rest.slice(end + 2 + size + 2);
  }
}

describe.each(["sqlite", "postgres"] as const)("hostile tokens and headers on %s", { timeout: 300_000 }, (kind) => {
  const database = useTestDatabase(kind);
  let server: ConsoleServer;
  let reviewerToken: string;
  let narrowAdminToken: string;
  let revoked: { id: string; token: string };

  const { call, refusedWithOnly } = tokenRequests(() => database.url);
  const decide = (headerLines: string[]) => rawRequest(server, "POST", "/api/decisions", headerLines, DECISION);

  beforeAll(async () => {
    const [started, admin] = await Promise.all([startConsoleServer(database.url), createTestAccount(database.url, "admin", `Ada-${kind}`)]);
    server = started;
    const headers = { cookie: await sessionCookie(database.url, admin), origin: server.url };
    const account = async (name: string, role: string) =>
      (await call(server, "POST", "/api/admin/service-accounts", headers, { name, role })).body.data.id as string;
    const token = async (serviceAccountId: string, name: string, scopes: string[]) =>
      (await call(server, "POST", "/api/admin/tokens", headers, { name, scopes, serviceAccountId })).body.data as {
        id: string;
        token: string;
      };
    const reviewerAccount = await account("ci-bot", "reviewer");
    const adminAccount = await account("ops-bot", "admin");
    reviewerToken = (await token(reviewerAccount, "deploy pipeline", ["queue:read", "decisions:write"])).token;
    narrowAdminToken = (await token(adminAccount, "dashboard", ["queue:read"])).token;
    revoked = await token(reviewerAccount, "old pipeline", ["queue:read", "decisions:write"]);
    expect((await call(server, "DELETE", `/api/admin/tokens/${revoked.id}`, headers, {})).status).toBe(200);
  }, 150_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses a valid token sent without its scheme: the header is not a bearer, and no session came with it", async () => {
    const { answer, added } = await refusedWithOnly(() => decide([`Authorization: ${reviewerToken}`]));
    expect(answer).toMatchObject({ status: 401, body: { ok: false, error: { code: "unauthenticated", message: "Sign in to continue." } } });
    expect(added).toEqual([expect.objectContaining({ reviewer: "anonymous", code: "unauthenticated", tokenId: null })]);
  });

  it.each([
    ["a NUL inside the token", (token: string) => `Authorization: Bearer ${token.slice(0, 20)}\u0000${token.slice(21)}`],
    ["a NUL after the token", (token: string) => `Authorization: Bearer ${token}\u0000`],
  ])("refuses %s before any of the console's code runs, storing nothing", async (_name, header) => {
    const { answer, added } = await refusedWithOnly(() => decide([header(reviewerToken)]));
    // Node's HTTP parser refuses the request line by line: a plain 400, no handler reached.
    expect(answer.status).toBe(400);
    expect(added).toEqual([]);
  });

  it.each([
    ["a token with a letter that is not ASCII", (token: string) => `Authorization: Bearer ${token.slice(0, 30)}é${token.slice(31)}`],
    ["a token of emoji", () => `Authorization: Bearer aat_${"🔑".repeat(20)}`],
    ["a scheme that is not ASCII", (token: string) => `Authorization: Beárer ${token}`],
  ])("refuses %s with 401 and one anonymous refusal row", async (name, header) => {
    const { answer, added } = await refusedWithOnly(() => decide([header(reviewerToken)]));
    expect(answer).toMatchObject({ status: 401, body: { ok: false, error: { code: "unauthenticated" } } });
    expect(answer.body.error!.message).toMatch(name.includes("scheme") ? /Sign in to continue/ : /must be `Bearer aat_…`/);
    expect(added).toEqual([expect.objectContaining({ reviewer: "anonymous", code: "unauthenticated", tokenId: null })]);
  });

  it("refuses a header over the server's limit (20 KB) with 431, storing nothing", async () => {
    const { answer, added } = await refusedWithOnly(() => decide([`Authorization: Bearer ${"A".repeat(20 * 1024)}`]));
    expect(answer.status).toBe(431);
    expect(added).toEqual([]);
  });

  // RFC 9110 (11.1, 11.4): the scheme is case-insensitive and one or more spaces may follow it. A
  // valid token so spelled is accepted; a revoked one is refused however it is spelled.
  const spellings = [
    ["lowercase bearer", (token: string) => `bearer ${token}`],
    ["BEARER", (token: string) => `BEARER ${token}`],
    ["two spaces", (token: string) => `Bearer  ${token}`],
    ["a trailing space", (token: string) => `Bearer ${token} `],
  ] as const;

  it.each(spellings)("refuses a revoked token sent with %s: 401 naming it, one refusal row", async (_name, spell) => {
    const { answer, added } = await refusedWithOnly(() =>
      call(server, "POST", "/api/decisions", { authorization: spell(revoked.token) }, JSON.parse(DECISION)),
    );
    expect(answer).toMatchObject({
      status: 401,
      body: { error: { code: "unauthenticated", message: expect.stringMatching(/was revoked/) } },
    });
    expect(added).toEqual([expect.objectContaining({ tokenId: revoked.id, tokenName: "old pipeline", authMethod: "token" })]);
  });

  it.each(spellings)("reads a valid token sent with %s as the standard allows", async (_name, spell) => {
    const { answer, added } = await refusedWithOnly(() => call(server, "GET", "/api/queue", { authorization: spell(reviewerToken) }));
    expect(answer.status).toBe(200);
    expect(added).toEqual([]);
  });

  it.each([
    ["a tab for the space", (token: string) => `Bearer\t${token}`],
    ["a colon after the scheme", (token: string) => `Bearer: ${token}`],
    ["a comma and a second token", (token: string) => `Bearer ${token}, Bearer ${token}`],
    ["the scheme twice", (token: string) => `Bearer Bearer ${token}`],
  ])("refuses %s with 401 and one anonymous refusal row", async (_name, spell) => {
    const { answer, added } = await refusedWithOnly(() =>
      call(server, "POST", "/api/decisions", { authorization: spell(reviewerToken) }, JSON.parse(DECISION)),
    );
    expect(answer).toMatchObject({ status: 401, body: { error: { code: "unauthenticated" } } });
    expect(added).toEqual([expect.objectContaining({ reviewer: "anonymous", tokenId: null })]);
  });

  /** Every admin operation of the OpenAPI document that needs more than reading and deciding. */
  const adminOperations = Object.entries(buildDocument().paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { "x-permission"?: string; requestBody?: unknown }>)
      .filter(([, operation]) => path.startsWith("/api/admin/") && !["read", "decide"].includes(operation["x-permission"] ?? "read"))
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, write: operation.requestBody !== undefined })),
  );

  it("refuses a reviewer service account's token, and an admin one's without the scope, on every admin route (403), storing nothing", async () => {
    expect(adminOperations.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const { method, path, write } of adminOperations) {
      const url = path.replace(/\{(\w+)\}/g, "00000000-0000-4000-8000-000000000000");
      for (const [token, expected] of [
        [reviewerToken, /Your role \(reviewer\) may not/],
        [narrowAdminToken, /This API token may not .*: it needs the (admin|rules:write) scope/],
      ] as const) {
        const { answer, added } = await refusedWithOnly(() =>
          call(server, method, url, { authorization: `Bearer ${token}` }, write ? {} : undefined),
        );
        if (answer.status !== 403 || answer.body.error?.code !== "forbidden" || !expected.test(answer.body.error.message) || added.length)
          wrong.push(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)} (${added.length} rows)`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
