/**
 * Which Node the console and its store promise to run on: every `engines` field says `>=` the floor
 * of lib/node-version.mjs (22.14: Mastra asks for 22.13, better-sqlite3 13 crashes on it), so npm warns on an older Node and nothing claims a
 * runtime the suite does not test. The check itself refuses what it must.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MINIMUM_NODE, nodeVersionProblem } from "../../lib/node-version.mjs";

const manifests = ["package.json", "packages/mastra-store/package.json"];

describe("the supported Node versions", () => {
  it.each(manifests)("%s declares engines.node >=22.14", (manifest) => {
    const { engines } = JSON.parse(readFileSync(manifest, "utf8")) as { engines?: { node?: string } };
    expect(engines?.node).toBe(">=22.14");
    expect(MINIMUM_NODE).toBe("22.14.0");
  });

  it("refuses Node 20 and 22.13 by name, accepts 22.14, 24 and later", () => {
    for (const version of ["20.20.2", "22.12.0", "22.13.1", "18.19.1", "21.9.0"]) {
      expect(nodeVersionProblem(version)).toMatch(
        new RegExp(`this is Node\\.js ${version.replaceAll(".", "\\.")}; the console needs Node\\.js 22\\.14\\.0 or newer`),
      );
    }
    for (const version of ["22.14.0", "22.20.0", "24.21.0", "26.1.0"]) expect(nodeVersionProblem(version)).toBeNull();
  });

  it("runs on a supported Node right now", () => {
    expect(nodeVersionProblem()).toBeNull();
  });
});

/** The machine's own Node when it is an unsupported one (these machines ship Node 20 at /usr/bin). */
const oldNode = ["/usr/bin/node", "/usr/local/bin/node"].find((candidate) => {
  try {
    return nodeVersionProblem(execFileSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8" }).trim()) !== null;
  } catch {
    return false;
  }
});

describe.runIf(oldNode)(`on an unsupported Node (${oldNode})`, () => {
  it.each(["demo", "test"])("`npm run %s` stops at once, naming the Node it needs, having done nothing", (script) => {
    const started = Date.now();
    const result = spawnSync("npm", ["run", script], {
      encoding: "utf8",
      env: { ...process.env, PATH: `${path.dirname(oldNode!)}:${process.env.PATH}`, DATABASE_URL: "file:./data/never-created.db" },
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/Stopping: this is Node\.js 2?\d\.\d+\.\d+; the console needs Node\.js 22\.14\.0 or newer/);
    expect(existsSync("data/never-created.db")).toBe(false);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it("`node server.mjs` refuses to start", () => {
    const result = spawnSync(oldNode!, ["server.mjs", "--port", "0"], { encoding: "utf8", timeout: 30_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/Refusing to start: this is Node\.js .+ needs Node\.js 22\.14\.0 or newer/);
  });
});
