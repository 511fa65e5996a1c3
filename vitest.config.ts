import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Files that run after the others, one at a time: tests/db/planner.test.ts builds a 100k backlog
 * within the test timeout (it timed out beside another file on a loaded machine).
 */
const ALONE = ["tests/db/planner.test.ts"];

export default defineConfig({
  // The app's `@/…` imports (tsconfig paths), so tests can call a route handler directly.
  resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL("./", import.meta.url)) }] },
  test: {
    // Native drivers (better-sqlite3, pg) and the schema engine's wasm are happier in processes.
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two files at a time: each has databases of its own (tests/helpers/databases.ts) and starts its
    // servers on its worker's band of each port range (tests/helpers/ports.ts). Most of a file that
    // runs processes waits (servers starting, leases running out, timeouts), which the other one uses.
    projects: [
      {
        extends: true,
        test: {
          name: "two at a time",
          include: ["tests/**/*.test.ts"],
          exclude: ALONE,
          maxWorkers: 2,
          // Compiles the scripts tests run as child processes, once (tests/helpers/child-scripts.ts).
          globalSetup: ["tests/global-setup.ts"],
        },
      },
      { extends: true, test: { name: "alone", include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
