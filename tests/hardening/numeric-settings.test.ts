/**
 * Numeric environment settings (lib/numeric-settings.mjs): one parser, one table of ranges and
 * defaults, the README's table true to it, and a console with a value outside a range refusing to
 * start, naming the setting and its range, on SQLite and PostgreSQL. `REVIEW_SLA_MINUTES=0` used to
 * run quietly on 60 with a log line; `"0x10"` was read as 16.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { GET as health } from "../../app/api/health/route.ts";
import { NUMERIC_SETTINGS, numericSetting, numericSettingProblem, wholeNumberOf } from "../../lib/numeric-settings.mjs";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { startConsoleServer, startConsoleServerExpectingExit } from "../helpers/console-server.ts";
import { useTestDatabase } from "../helpers/databases.ts";

describe("the parser", () => {
  it("reads a JSON number or plain digits, and nothing else", () => {
    expect([15, "15", "007", 0, "0", 1e21].map(wholeNumberOf)).toEqual([15, 15, 7, 0, 0, 1e21]);
    for (const value of [
      true,
      false,
      [5],
      ["5"],
      "0x10",
      "1e3",
      "1_000",
      "",
      " ",
      " 5",
      "5 ",
      "2.5",
      2.5,
      "-5",
      "+5",
      NaN,
      Infinity,
      null,
      undefined,
      {},
      "٥",
    ]) {
      expect({ value, read: wholeNumberOf(value) }).toEqual({ value, read: undefined });
    }
  });

  it("takes a setting's default when unset or empty, and refuses any value outside its range, saying which and why", () => {
    expect(numericSetting("REVIEW_SLA_MINUTES", {})).toBe(60);
    expect(numericSetting("REVIEW_SLA_MINUTES", { REVIEW_SLA_MINUTES: "" })).toBe(60);
    expect(numericSetting("REVIEW_SLA_MINUTES", { REVIEW_SLA_MINUTES: "525600" })).toBe(525_600);
    for (const value of ["0", "0x10", "1e3", "60.0", " 60", "-1", "525601", "sixty"]) {
      expect(numericSettingProblem("REVIEW_SLA_MINUTES", { REVIEW_SLA_MINUTES: value })).toBe(
        `REVIEW_SLA_MINUTES must be a whole number from 1 to 525600 (minutes; unset: 60), not ${JSON.stringify(value)}.`,
      );
      expect(() => numericSetting("REVIEW_SLA_MINUTES", { REVIEW_SLA_MINUTES: value })).toThrow(/^REVIEW_SLA_MINUTES must be/);
    }
  });
});

describe("the table of numeric settings in docs/settings.md", () => {
  it("lists every setting the code defines, with its range, unit and default, and no other", () => {
    const readme = readFileSync("docs/settings.md", "utf8");
    const section = readme.slice(
      readme.indexOf("\n## Numeric settings\n"),
      readme.indexOf("\n## ", readme.indexOf("\n## Numeric settings\n") + 1),
    );
    const rows = section
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((line) => line.split("|").map((cell) => cell.trim()));
    const documented = Object.fromEntries(
      rows.map(([, name, , allowed, fallback]) => {
        const [, min, max, unit] = /^(\d+) to (\d+) \((.+)\)$/.exec(allowed!) ?? [];
        return [name!.replaceAll("`", ""), { min: Number(min), max: Number(max), unit, default: Number(fallback) }];
      }),
    );
    expect(documented).toEqual(
      Object.fromEntries(
        Object.entries(NUMERIC_SETTINGS).map(([name, { min, max, unit, default: fallback }]) => [
          name,
          { min, max, unit, default: fallback },
        ]),
      ),
    );
  });
});

describe("/api/health with a numeric setting out of range", () => {
  const previous = process.env.BULK_CONCURRENCY;
  afterEach(() => {
    if (previous === undefined) delete process.env.BULK_CONCURRENCY;
    else process.env.BULK_CONCURRENCY = previous;
  });

  it("answers 503 with the reason", async () => {
    process.env.BULK_CONCURRENCY = "0x10";
    const response = await health();
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      ok: false,
      error: 'BULK_CONCURRENCY must be a whole number from 1 to 100 (threads; unset: 4), not "0x10".',
    });
  });
});

describe("npm start's port", () => {
  it("is read like every numeric setting: --port 0x10 is refused, not port 16", () => {
    const started = spawnSync(process.execPath, ["server.mjs", "--port", "0x10"], {
      env: { ...process.env, BETTER_AUTH_SECRET: "x".repeat(40) },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain(
      'Refusing to start: --port must be a whole number from 1 to 65535 (a TCP port; unset: 3000), not "0x10".',
    );
  });
});

describe.each(["sqlite", "postgres"] as const)("a console on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind);

  it.each([
    [{ REVIEW_SLA_MINUTES: "0" }, 'REVIEW_SLA_MINUTES must be a whole number from 1 to 525600 (minutes; unset: 60), not "0".'],
    [{ REVIEW_SLA_MINUTES: "0x10" }, 'REVIEW_SLA_MINUTES must be a whole number from 1 to 525600 (minutes; unset: 60), not "0x10".'],
    [{ WEBHOOKS_POLL_MS: "1e3" }, 'WEBHOOKS_POLL_MS must be a whole number from 100 to 60000 (milliseconds; unset: 1000), not "1e3".'],
    [
      { AUTH_SIGN_IN_ATTEMPTS_PER_MINUTE: " 5" },
      'AUTH_SIGN_IN_ATTEMPTS_PER_MINUTE must be a whole number from 1 to 100000 (attempts; unset: 5), not " 5".',
    ],
  ])("refuses to start with %j, naming the setting and its range", async (env, problem) => {
    const exit = await startConsoleServerExpectingExit(database.url, env);
    expect(exit).toMatchObject({ started: false, code: 1 });
    expect(exit.output).toContain(`Refusing to start: ${problem}`);
  });

  it("starts with values in range (or empty: the default), and uses them", async () => {
    const [server, cookie] = await Promise.all([
      startConsoleServer(database.url, { REVIEW_SLA_MINUTES: "525600", BULK_CONCURRENCY: "" }),
      createTestAccount(database.url, "support").then((account) => sessionCookie(database.url, account)),
    ]);
    try {
      const queue = await fetch(`${server.url}/api/queue`, { headers: { cookie } });
      expect(await queue.json()).toMatchObject({ ok: true, data: { slaMinutes: 525_600 } });
    } finally {
      await server.stop();
    }
  });
});
