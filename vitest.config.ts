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
    // Three files at a time on two cores: each has databases of its own (tests/helpers/databases.ts)
    // and starts its servers on its worker's band of each port range (tests/helpers/ports.ts). Most
    // of a file that runs processes waits (servers starting, leases running out, timeouts): with two
    // at a time the machine sat 40% idle through CI (.ci/run's user + sys against its wall time).
    include: ["tests/**/*.test.ts"],
    maxWorkers: 3,
    // Compiles the scripts tests run as child processes, once (tests/helpers/child-scripts.ts).
    globalSetup: ["tests/global-setup.ts"],
  },
});
