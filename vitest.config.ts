import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The app's `@/…` imports (tsconfig paths), so tests can call a route handler directly.
  resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL("./", import.meta.url)) }] },
  test: {
    // Native drivers (better-sqlite3, pg) and the schema engine's wasm are happier in processes.
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two files at a time: each has databases of its own (tests/helpers/databases.ts) and starts its
    // servers on its worker's band of each port range (tests/helpers/ports.ts). Three were tried
    // (2026-12-07): the suite took the same 19.4 min on two cores, its files each slower, so two.
    include: ["tests/**/*.test.ts"],
    maxWorkers: 2,
    // Compiles the scripts tests run as child processes, once (tests/helpers/child-scripts.ts).
    globalSetup: ["tests/global-setup.ts"],
  },
});
