/**
 * A console started with its database (compose, Kubernetes) or on a busy machine, as deployed
 * (server.mjs in its own process): it waits for a database that cannot be reached yet, up to
 * DATABASE_WAIT_SECONDS, logging each failed try, and refuses at once what no wait can fix. It used
 * to give up after one try of 10 s. On PostgreSQL (a port opened late, through a proxy to the real
 * server) and SQLite (a file locked by another process).
 */
import { writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteFilePath } from "../../lib/db/database-url.ts";
import { startConsoleServer, startConsoleServerExpectingExit } from "../helpers/console-server.ts";
import { useTestDatabase } from "../helpers/databases.ts";

describe("waiting for the database at start", () => {
  const postgres = useTestDatabase("postgres");
  const sqlite = useTestDatabase("sqlite");
  const proxies: net.Server[] = [];
  afterAll(async () => {
    for (const proxy of proxies) await new Promise((resolve) => proxy.close(resolve));
  });

  /** A local port nothing listens on (the system's choice, let go at once). */
  async function unusedPort(): Promise<number> {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  /** From now on, `port` passes connections through to the real PostgreSQL. */
  function openProxy(port: number, target: URL) {
    const proxy = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      client.pipe(upstream).pipe(client);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
    });
    proxies.push(proxy);
    proxy.listen(port, "127.0.0.1");
  }

  const withPort = (url: string, port: number) => Object.assign(new URL(url), { port: String(port) }).toString();
  const WAITING =
    /^Waiting for the database postgres:\/\/\S+: attempt (\d+) failed \((.+)\); next try in ([\d.]+) s \(up to DATABASE_WAIT_SECONDS=(\d+)\)\.$/gm;

  it("PostgreSQL not listening yet: tries again, logging each try, and serves once it answers", async () => {
    const port = await unusedPort();
    let opened = false;
    const server = await startConsoleServer(withPort(postgres.url, port), { DATABASE_WAIT_SECONDS: "60" }, (output) => {
      // Open the database's port once the console has failed twice (a second wait twice the first).
      if (!opened && /attempt 2 failed/.test(output)) {
        opened = true;
        openProxy(port, new URL(postgres.url));
      }
    });
    try {
      const tries = [...server.output().matchAll(WAITING)];
      expect(tries.length).toBeGreaterThanOrEqual(2);
      expect(tries.slice(0, 2).map(([, attempt, reason, next, limit]) => ({ attempt, reason, next, limit }))).toEqual([
        { attempt: "1", reason: `connect ECONNREFUSED 127.0.0.1:${port}`, next: "1", limit: "60" },
        { attempt: "2", reason: `connect ECONNREFUSED 127.0.0.1:${port}`, next: "2", limit: "60" },
      ]);
      expect(server.output()).not.toContain("Refusing to start");
      // Nothing of the console ran on the database before it answered (recovery, event delivery).
      expect(server.output()).not.toMatch(/^\[[\w ]+\] .*fail/m);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it("PostgreSQL that never comes up: refuses with the reason once DATABASE_WAIT_SECONDS have passed", async () => {
    const port = await unusedPort();
    const started = Date.now();
    const {
      started: served,
      code,
      output,
    } = await startConsoleServerExpectingExit(withPort(postgres.url, port), {
      DATABASE_WAIT_SECONDS: "2",
    });
    const seconds = (Date.now() - started) / 1000;
    expect({ served, code }).toEqual({ served: false, code: 1 });
    expect([...output.matchAll(WAITING)].length).toBeGreaterThanOrEqual(1);
    expect(output).toMatch(
      new RegExp(
        `^Refusing to start: the database postgres://\\S+:${port}/\\S+ cannot be reached: connect ECONNREFUSED 127\\.0\\.0\\.1:${port} ` +
          `\\(\\d+ tries in \\d+ s; DATABASE_WAIT_SECONDS=2\\)$`,
        "m",
      ),
    );
    // Next's start and two seconds of tries, with the margin a busy machine needs, not a minute.
    expect(seconds).toBeLessThan(30);
  });

  it.each([
    [
      "an unknown database",
      (url: URL) => Object.assign(url, { pathname: "/no_such_database_for_the_console" }),
      /database "no_such_database_for_the_console" does not exist/,
    ],
    [
      "an unknown role",
      (url: URL) => Object.assign(url, { username: "no_such_role_for_the_console" }),
      /(role "no_such_role_for_the_console" does not exist|password authentication failed)/,
    ],
  ])("PostgreSQL with %s: refuses at once, with the reason", async (_, change, reason) => {
    const { started, code, output } = await startConsoleServerExpectingExit(change(new URL(postgres.url)).toString(), {
      DATABASE_WAIT_SECONDS: "60",
    });
    expect({ started, code }).toEqual({ started: false, code: 1 });
    expect(output).not.toContain("Waiting for the database");
    expect(output).toMatch(/^Refusing to start: the database postgres:\/\/\S+ cannot be reached: .+$/m);
    expect(output).toMatch(reason);
  });

  it("a database URL of neither kind: refuses at once, in one line", async () => {
    const { started, code, output } = await startConsoleServerExpectingExit("mysql://root@127.0.0.1:3306/console", {
      DATABASE_WAIT_SECONDS: "60",
    });
    expect({ started, code }).toEqual({ started: false, code: 1 });
    expect(output.trim()).toMatch(
      /^Refusing to start: the database mysql:\/\/root@127\.0\.0\.1:3306\/console cannot be reached: Unsupported database URL .+$/,
    );
  });

  it("SQLite locked by another process past its busy timeout: tries again, and serves once the lock is let go", async () => {
    const holder = new Database(sqliteFilePath(sqlite.url));
    // Exclusive locking mode: the first read takes the file's lock and keeps it, shutting out every other connection.
    holder.pragma("locking_mode = EXCLUSIVE");
    holder.exec("BEGIN EXCLUSIVE; COMMIT");
    let released = false;
    const server = await startConsoleServer(sqlite.url, { DATABASE_WAIT_SECONDS: "60" }, (output) => {
      if (!released && /^Waiting for the database file:.+: attempt 1 failed \(database is locked\); next try in 1 s/m.test(output)) {
        released = true;
        holder.close();
      }
    }).finally(() => holder.open && holder.close());
    try {
      expect(released).toBe(true);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it("SQLite file that is not a database: refuses at once, with the reason", async () => {
    const file = path.join(path.dirname(sqliteFilePath(sqlite.url)), "not-a-database.db");
    writeFileSync(file, "plain text, not SQLite ".repeat(100));
    const { started, code, output } = await startConsoleServerExpectingExit(`file:${file}`, { DATABASE_WAIT_SECONDS: "60" });
    expect({ started, code }).toEqual({ started: false, code: 1 });
    expect(output).not.toContain("Waiting for the database");
    expect(output).toMatch(/^Refusing to start: the database file:\S+not-a-database\.db cannot be reached: file is not a database$/m);
  });
});
