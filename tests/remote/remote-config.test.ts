/**
 * Remote mode's settings (lib/mastra/remote.ts): read in one place, validated, and a console with
 * unusable ones refuses to start, saying why.
 */
import { describe, expect, it } from "vitest";
import { remoteServer } from "../../lib/mastra/remote.ts";
import { startConsoleServer } from "../helpers/console-server.ts";
import { useTestDatabase } from "../helpers/databases.ts";

describe("remote mode settings", () => {
  it("embedded mode without MASTRA_SERVER_URL", () => {
    expect(remoteServer({})).toBeUndefined();
  });

  it("headers from JSON, the token as a bearer header (it wins), a timeout", () => {
    expect(
      remoteServer({
        MASTRA_SERVER_URL: "http://mastra.internal:4111/",
        MASTRA_SERVER_HEADERS: '{"x-api-key":"k","Authorization":"Basic old"}',
        MASTRA_SERVER_TOKEN: "t0ken",
        MASTRA_SERVER_TIMEOUT_MS: "5000",
      }),
    ).toEqual({
      url: "http://mastra.internal:4111",
      headers: { "x-api-key": "k", Authorization: "Bearer t0ken" },
      timeoutMs: 5000,
    });
  });

  it.each([
    [{ MASTRA_SERVER_HEADERS: '{"x-api-key":' }, /MASTRA_SERVER_HEADERS is not valid JSON/],
    [{ MASTRA_SERVER_HEADERS: '["x"]' }, /MASTRA_SERVER_HEADERS must be a JSON object of strings/],
    [{ MASTRA_SERVER_HEADERS: '{"x-retries":3}' }, /MASTRA_SERVER_HEADERS must be a JSON object of strings/],
    [{ MASTRA_SERVER_URL: "ftp://mastra" }, /MASTRA_SERVER_URL must be an http\(s\) URL/],
    [
      { MASTRA_SERVER_TIMEOUT_MS: "soon" },
      /MASTRA_SERVER_TIMEOUT_MS must be a whole number from 1000 to 3600000 \(milliseconds; unset: 120000\), not "soon"/,
    ],
    [{ MASTRA_SERVER_TIMEOUT_MS: "0x10" }, /MASTRA_SERVER_TIMEOUT_MS must be a whole number from 1000 to 3600000/],
  ])("refuses %j", (settings, problem) => {
    expect(() => remoteServer({ MASTRA_SERVER_URL: "http://127.0.0.1:4111", ...settings })).toThrow(problem);
  });

  describe.each(["sqlite", "postgres"] as const)("a console on %s", (kind) => {
    const database = useTestDatabase(kind);
    it("does not start with MASTRA_SERVER_HEADERS that are not JSON, and says so", async () => {
      await expect(
        startConsoleServer(database.url, { MASTRA_SERVER_URL: "http://127.0.0.1:3399", MASTRA_SERVER_HEADERS: "{oops" }),
      ).rejects.toThrow(/Refusing to start: Remote mode is misconfigured: MASTRA_SERVER_HEADERS is not valid JSON/);
    });
  });
});
