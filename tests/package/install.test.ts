/**
 * Installing a checkout, as a new team does it: npm itself refuses an unsupported Node before it
 * installs anything (`engine-strict` in .npmrc with the `engines` field: the root `preinstall` runs
 * only after npm has installed every dependency and rewritten the lockfile), `npm install` on a
 * supported Node has nothing to rewrite in package-lock.json, and a checkout that is not (or not
 * completely) installed says so, naming `npm install`, instead of failing on its first import.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MINIMUM_NODE } from "../../lib/node-version.mjs";
import { unsupportedNode } from "../helpers/unsupported-node.ts";

const scratch = mkdtempSync(path.join(tmpdir(), "console-install-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of this checkout's files as a clone has them (tracked or not ignored): no node_modules, build or data. */
function cloneWithoutInstall(name: string): string {
  const target = path.join(scratch, name);
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { encoding: "utf8" })
    .split("\0")
    .filter((file) => file && existsSync(file));
  for (const file of files) {
    mkdirSync(path.join(target, path.dirname(file)), { recursive: true });
    cpSync(file, path.join(target, file));
  }
  return target;
}

/** The environment of a command run in a copy: nothing of this run's database or build. */
function envFor(extra: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: undefined, BETTER_AUTH_SECRET: "x".repeat(40), ...extra };
  // An npm script run by vitest's own npm would hand its settings (npm_config_*) down.
  for (const name of Object.keys(env)) if (name.startsWith("npm_")) delete env[name];
  return env;
}

describe("npm's own check of the Node version", () => {
  it(".npmrc makes npm refuse what `engines` excludes, before installing", () => {
    expect(readFileSync(".npmrc", "utf8")).toMatch(/^engine-strict=true$/m);
  });

  it("package-lock.json records every installed package as npm does after installing it, so `npm install` rewrites nothing", () => {
    // npm keeps what it last installed in node_modules/.package-lock.json, each package read from
    // its installed package.json; the committed lockfile is read from the registry's metadata,
    // which lacks what npm infers on install (hasInstallScript for a package with a binding.gyp).
    const installed = JSON.parse(readFileSync("node_modules/.package-lock.json", "utf8")).packages as Record<string, unknown>;
    const locked = JSON.parse(readFileSync("package-lock.json", "utf8")).packages as Record<string, unknown>;
    const differing = Object.keys(installed).filter((key) => JSON.stringify(installed[key]) !== JSON.stringify(locked[key]));
    expect(differing).toEqual([]);
  });
});

describe.runIf(unsupportedNode)(`on an unsupported Node (${unsupportedNode})`, () => {
  const onOldNode = (extra: Record<string, string> = {}) =>
    envFor({ PATH: `${path.dirname(unsupportedNode!)}:${process.env.PATH}`, ...extra });

  it("`npm install` refuses at once, naming the Node it needs, installing nothing and leaving package-lock.json as it was", () => {
    const checkout = cloneWithoutInstall("old-node-install");
    const lockfile = readFileSync(path.join(checkout, "package-lock.json"));
    const result = spawnSync("npm", ["install", "--no-audit", "--no-fund"], {
      cwd: checkout,
      encoding: "utf8",
      env: onOldNode(),
      timeout: 300_000,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("EBADENGINE");
    expect(result.stderr).toContain(`Required: {"node":">=${MINIMUM_NODE.replace(/\.0$/, "")}"}`);
    expect(existsSync(path.join(checkout, "node_modules"))).toBe(false);
    expect(readFileSync(path.join(checkout, "package-lock.json")).equals(lockfile)).toBe(true);
  }, 300_000);

  it("`node server.mjs` in a checkout that is not installed names the Node it needs", () => {
    const checkout = cloneWithoutInstall("old-node-start");
    const result = spawnSync(unsupportedNode!, ["server.mjs", "--port", "0"], {
      cwd: checkout,
      encoding: "utf8",
      env: onOldNode(),
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(
      new RegExp(`^Refusing to start: this is Node\\.js .+ needs Node\\.js ${MINIMUM_NODE.replaceAll(".", "\\.")} or newer`),
    );
  });
});

describe("a checkout that is not installed", () => {
  it("`node server.mjs` refuses in one line naming `npm install`, not with ERR_MODULE_NOT_FOUND", () => {
    const checkout = cloneWithoutInstall("start");
    const result = spawnSync(process.execPath, ["server.mjs", "--port", "0"], {
      cwd: checkout,
      encoding: "utf8",
      env: envFor(),
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).not.toContain("ERR_MODULE_NOT_FOUND");
    expect(result.stderr.trim()).toMatch(
      /^Refusing to start: this checkout is not completely installed \(missing: next, .+\): run `npm install`/,
    );
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("`npm run demo` stops at once naming `npm install`, having done nothing", () => {
    const checkout = cloneWithoutInstall("demo");
    const result = spawnSync("npm", ["run", "demo"], { cwd: checkout, encoding: "utf8", env: envFor(), timeout: 60_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^Stopping: this checkout is not completely installed \(missing: next, .+\): run `npm install`/m);
    expect(existsSync(path.join(checkout, "data"))).toBe(false);
  });
});
