import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The app's `@/…` imports (tsconfig paths), so tests can call a route handler directly.
  resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL("./", import.meta.url)) }] },
  test: {
    include: ["tests/**/*.test.ts"],
    // Compiles the scripts tests run as child processes, once (tests/helpers/child-scripts.ts).
    globalSetup: ["tests/global-setup.ts"],
    // Native drivers (better-sqlite3, pg) and the schema engine's wasm are happier in processes.
    pool: "forks",
    // Tests share one PostgreSQL server; one file at a time keeps them from competing for it.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
