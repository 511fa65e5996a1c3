/**
 * The commands the READMEs tell a team to run are the project's own: every `npm run <script>` in the
 * root README and the store package's is a script of the root package.json (the package's own
 * scripts for a `--workspace` one), and the settings the quick start puts before them are read by
 * what they run (`PORT=… npm run demo`: the demo ends in server.mjs, which reads PORT).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NUMERIC_SETTINGS } from "../../lib/numeric-settings.mjs";

const rootScripts = JSON.parse(readFileSync("package.json", "utf8")).scripts as Record<string, string>;
const storeScripts = JSON.parse(readFileSync("packages/mastra-store/package.json", "utf8")).scripts as Record<string, string>;

describe.each(["README.md", "packages/mastra-store/README.md"])("%s", (readme) => {
  const text = readFileSync(readme, "utf8");

  it("names only npm scripts that exist", () => {
    const named = [...text.matchAll(/npm run ([\w:-]+)( --workspace)?/g)].map(([, script, workspace]) => ({ script, workspace }));
    expect(named.length).toBeGreaterThan(0);
    const missing = named
      .filter(({ script, workspace }) => !(script! in (workspace ? storeScripts : rootScripts)))
      .map(({ script }) => script);
    expect(missing).toEqual([]);
  });
});

describe("the root README's quick start", () => {
  it("serves the demo on another port with PORT, which the demo's server reads", () => {
    expect(readFileSync("README.md", "utf8")).toContain("`PORT=3001 npm run demo` serves it on\nanother port");
    expect(rootScripts.demo).toMatch(/ node server\.mjs$/);
    expect(NUMERIC_SETTINGS.PORT.default).toBe(3000);
    expect(readFileSync("server.mjs", "utf8")).toContain("process.env.PORT");
  });
});
