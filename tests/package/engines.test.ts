/**
 * Which Node the console and its store promise to run on: every `engines` field says `>=` the floor
 * of lib/node-version.mjs (22.22: better-sqlite3 13 crashes on 22.13, and posthog-node, which
 * `@mastra/core` installs, declares `^20.20.0 || >=22.22.0`), so npm refuses an older Node
 * (engine-strict, .npmrc), and nothing claims a runtime the suite does not test or a locked package
 * refuses. The check itself refuses what it must.
 */
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET_TESTED_NODE, MINIMUM_NODE, nodeVersionProblem } from "../../lib/node-version.mjs";
import { unsupportedNode } from "../helpers/unsupported-node.ts";

const manifests = ["package.json", "packages/mastra-store/package.json"];
const FLOOR = MINIMUM_NODE.replace(/\.0$/, "");
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("the supported Node versions", () => {
  it.each(manifests)(`%s declares engines.node >=${FLOOR}, the floor lib/node-version.mjs enforces`, (manifest) => {
    const { engines } = JSON.parse(readFileSync(manifest, "utf8")) as { engines?: { node?: string } };
    expect(engines?.node).toBe(`>=${FLOOR}`);
    expect(MINIMUM_NODE).toBe("22.22.0");
  });

  it("every package npm installs here accepts the floor (npm checks them all under engine-strict)", () => {
    // npm's own test (npm-install-checks): semver with prereleases, on every package it does not skip as optional.
    const semver = createRequire(import.meta.url)("semver") as {
      satisfies(version: string, range: string, options: { includePrerelease: boolean }): boolean;
    };
    const locked = JSON.parse(readFileSync("package-lock.json", "utf8")).packages as Record<
      string,
      { optional?: boolean; engines?: { node?: string } | string[] }
    >;
    const refusing = Object.entries(locked)
      .filter(([, entry]) => !entry.optional && entry.engines && !Array.isArray(entry.engines) && entry.engines.node)
      .filter(([, entry]) => !semver.satisfies(MINIMUM_NODE, (entry.engines as { node: string }).node, { includePrerelease: true }))
      .map(([name, entry]) => `${name || "(root)"} ${(entry.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });

  it("refuses Node 20, 22.13 and 22.21 by name, accepts 22.22, 24 and later", () => {
    for (const version of ["20.20.2", "22.12.0", "22.13.1", "22.14.0", "22.21.1", "18.19.1", "21.9.0"]) {
      expect(nodeVersionProblem(version)).toMatch(
        new RegExp(`this is Node\\.js ${escaped(version)}; the console needs Node\\.js ${escaped(MINIMUM_NODE)} or newer`),
      );
    }
    for (const version of ["22.22.0", "22.23.3", "24.21.0", "26.1.0"]) expect(nodeVersionProblem(version)).toBeNull();
  });

  it("runs on a supported Node right now", () => {
    expect(nodeVersionProblem()).toBeNull();
  });

  it("the README's way to get Node 24 is the one the refusal gives, and it brings an npm", () => {
    expect(nodeVersionProblem("20.20.2")).toContain(GET_TESTED_NODE);
    expect(GET_TESTED_NODE).toMatch(/ npm@\d+ /);
    expect(readFileSync("README.md", "utf8")).toContain(`\`\`\`sh\n${GET_TESTED_NODE}\n\`\`\``);
  });
});

describe.runIf(unsupportedNode)(`on an unsupported Node (${unsupportedNode})`, () => {
  it.each(["demo", "test"])("`npm run %s` stops at once, naming the Node it needs, having done nothing", (script) => {
    const result = spawnSync("npm", ["run", script], {
      encoding: "utf8",
      env: { ...process.env, PATH: `${path.dirname(unsupportedNode!)}:${process.env.PATH}`, DATABASE_URL: "file:./data/never-created.db" },
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`Stopping: this is Node\\.js 2?\\d\\.\\d+\\.\\d+; the console needs Node\\.js ${escaped(MINIMUM_NODE)} or newer`),
    );
    expect(existsSync("data/never-created.db")).toBe(false);
  });

  it("`node server.mjs` refuses to start", () => {
    const result = spawnSync(unsupportedNode!, ["server.mjs", "--port", "0"], { encoding: "utf8", timeout: 30_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`Refusing to start: this is Node\\.js .+ needs Node\\.js ${escaped(MINIMUM_NODE)} or newer`));
  });
});
