/**
 * What server.mjs does before Next sees a request, against a real console server: bodies over the
 * limit or of unknown length are refused from their headers alone, the rest pass through.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "../../lib/db/client.ts";
import { MAX_REQUEST_BODY_BYTES } from "../../lib/http/limits.mjs";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

describe("the console server", () => {
  let database: TestDatabase;
  let server: ConsoleServer;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startConsoleServer(database.url);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  /**
   * A raw request that sends `headers` and then only `sent` bytes of its body, so an answer proves
   * the server did not wait for the rest. Resolves with the first response.
   */
  function send(method: string, path: string, headers: Record<string, string | number>, sent: string | string[] = "") {
    return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const request = httpRequest(`${server.url}${path}`, { method, headers }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      });
      request.on("error", reject);
      for (const chunk of Array.isArray(sent) ? sent : [sent]) request.write(chunk);
      // A declared length is left unfinished on purpose; a chunked body is ended.
      if (!("content-length" in headers)) request.end();
    });
  }

  it("refuses a body declared larger than the limit with 413, without reading it", async () => {
    const response = await send(
      "POST",
      "/api/auth/sign-in/email",
      { "content-type": "application/json", "content-length": 10 * 1024 * 1024, origin: server.url },
      '{"email":"',
    );
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(response.body)).toMatchObject({ ok: false, error: { code: "payload_too_large" } });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it("refuses a body of unknown length (chunked) with 411", async () => {
    const response = await send("POST", "/api/decisions", { "content-type": "application/json", origin: server.url }, ['{"action":', '"approve"}']);
    expect(response.status).toBe(411);
    expect(JSON.parse(response.body)).toMatchObject({ ok: false, error: { code: "length_required" } });
  });

  it("passes bodies within the limit, and GETs, to the console", async () => {
    const body = JSON.stringify({ email: "nobody@test.example", password: "x".repeat(MAX_REQUEST_BODY_BYTES - 100) });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_REQUEST_BODY_BYTES);
    const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body,
    });
    expect([400, 401]).toContain(signIn.status);
    expect((await fetch(`${server.url}/sign-in`)).status).toBe(200);
  });
});
