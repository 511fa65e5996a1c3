/**
 * The console server as deployed, in real processes: server.mjs refuses bodies over the limit or of
 * unknown length from their headers alone and passes the rest; every response carries the security
 * headers; a configuration that cannot work stops server.mjs and plain `next start` before they
 * serve, and /api/health reports it. (Waiting for the database at start: database-wait.test.ts.)
 */
import { spawn } from "node:child_process";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "../../app/api/health/route.ts";
import { disconnectDb } from "../../lib/db/client.ts";
import { MAX_REQUEST_BODY_BYTES } from "../../lib/http/limits.mjs";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, useTestDatabase, type TestDatabase } from "../helpers/databases.ts";

const SECURITY_HEADERS = {
  "content-security-policy": "frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
};

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

  it("refuses a body declared larger than the limit with 413, without reading it, and passes one within it", async () => {
    const response = await send(
      "POST",
      "/api/auth/sign-in/email",
      { "content-type": "application/json", "content-length": 10 * 1024 * 1024, origin: server.url },
      '{"email":"',
    );
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(response.headers).toMatchObject(SECURITY_HEADERS);
    expect(JSON.parse(response.body)).toMatchObject({ ok: false, error: { code: "payload_too_large" } });

    const within = JSON.stringify({ email: "nobody@test.example", password: "x".repeat(MAX_REQUEST_BODY_BYTES - 100) });
    expect(Buffer.byteLength(within)).toBeLessThanOrEqual(MAX_REQUEST_BODY_BYTES);
    const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: within,
    });
    expect([400, 401]).toContain(signIn.status); // better-auth's answer: the body reached it
  });

  it("refuses a body of unknown length (chunked) with 411, and leaves GETs alone", async () => {
    const response = await send("POST", "/api/decisions", { "content-type": "application/json", origin: server.url }, [
      '{"action":',
      '"approve"}',
    ]);
    expect(response.status).toBe(411);
    expect(JSON.parse(response.body)).toMatchObject({ ok: false, error: { code: "length_required" } });
    expect((await send("GET", "/api/health", { "transfer-encoding": "chunked" }, ["x"])).status).toBe(200);
    expect((await fetch(`${server.url}/sign-in`)).status).toBe(200);
  });

  it.each(["/sign-in", "/", "/api/health", "/api/runs", "/api/auth/get-session", "/no-such-page"])(
    "sends the security headers with %s",
    async (pathname) => {
      const response = await fetch(`${server.url}${pathname}`, { redirect: "manual" });
      expect(Object.fromEntries(Object.keys(SECURITY_HEADERS).map((name) => [name, response.headers.get(name)]))).toEqual(SECURITY_HEADERS);
    },
  );
});

describe("starting without a usable configuration", () => {
  const database = useTestDatabase("sqlite");

  /** Runs a server command until it exits, or for 30 s: then it is killed (exit code null). */
  function runUntilExit(args: string[], env: Record<string, string | undefined>) {
    const child = spawn(process.execPath, args, {
      env: {
        ...process.env,
        BETTER_AUTH_SECRET: undefined,
        CONSOLE_DEMO: undefined,
        NODE_ENV: "production",
        DATABASE_URL: database.url,
        ...env,
      },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk) => (stdout += chunk));
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 30_000);
      child.on("exit", (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  const port = () => String(3700 + Math.floor(Math.random() * 200));
  const MESSAGE = /^Refusing to start: BETTER_AUTH_SECRET is not set: .*$/m;

  it("server.mjs refuses to start without BETTER_AUTH_SECRET, in one line", async () => {
    const { code, stderr } = await runUntilExit([path.resolve("server.mjs"), "--hostname", "127.0.0.1", "--port", port()], {});
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(MESSAGE);
    expect(stderr.trim().split("\n")).toHaveLength(1);
  });

  it("plain `next start` refuses too", async () => {
    const { code, stderr } = await runUntilExit(
      [path.resolve("node_modules/next/dist/bin/next"), "start", "--hostname", "127.0.0.1", "--port", port()],
      {},
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(MESSAGE);
  });

  it("server.mjs refuses a TRUSTED_PROXIES entry that is not an address or range", async () => {
    const { code, stderr } = await runUntilExit([path.resolve("server.mjs"), "--hostname", "127.0.0.1", "--port", port()], {
      BETTER_AUTH_SECRET: "a-secret-long-enough-for-the-test-0123456789",
      TRUSTED_PROXIES: "10.0.0.1, proxy.internal",
    });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe('Refusing to start: TRUSTED_PROXIES: "proxy.internal" is not an IP address or CIDR range');
  });

  it("/api/health answers 503 with the reason", async () => {
    const changed = { NODE_ENV: "production", DATABASE_URL: database.url, BETTER_AUTH_SECRET: undefined, CONSOLE_DEMO: undefined };
    const saved = Object.fromEntries(Object.keys(changed).map((name) => [name, process.env[name]]));
    const apply = (values: Record<string, string | undefined>) => {
      for (const [name, value] of Object.entries(values)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    };
    apply(changed);
    try {
      const response = await health();
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ ok: false, error: expect.stringMatching(/^BETTER_AUTH_SECRET is not set/) });
    } finally {
      apply(saved);
    }
  });
});
