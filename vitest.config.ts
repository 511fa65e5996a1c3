import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Test files that run entirely inside their vitest process, on databases of their own: no child
 * processes, no servers on ports, no wall-clock measurements. They run two at a time. Every other
 * file (a new one too, until it is listed here) runs alone afterwards: crash tests kill processes on
 * short leases, servers take ports from shared ranges, some tests time what they do, and
 * tests/db/planner.test.ts builds a 100k backlog within the test timeout (it timed out beside another
 * file on a loaded machine).
 */
const IN_PROCESS = [
  "tests/assignments/assignments.test.ts",
  "tests/audit/history.test.ts",
  "tests/auth/return-path.test.ts",
  "tests/auth/server-actions.test.ts",
  "tests/bench/sql-backlog.test.ts",
  "tests/bench/targets.test.ts",
  "tests/config/settings.test.ts",
  "tests/config/users.test.ts",
  "tests/config/webhooks.test.ts",
  "tests/db/migrate.test.ts",
  "tests/db/pending-calls-migration.test.ts",
  "tests/db/request-excerpt-migration.test.ts",
  "tests/db/sqlite-turns.test.ts",
  "tests/db/waiting-call-risks.test.ts",
  "tests/decisions/earlier.test.ts",
  "tests/decisions/expiry-mark.test.ts",
  "tests/decisions/expiry.test.ts",
  "tests/decisions/issues.test.ts",
  "tests/decisions/outside-decisions.test.ts",
  "tests/decisions/shared-thread.test.ts",
  "tests/events/clock-announcements.test.ts",
  "tests/events/outbox.test.ts",
  "tests/events/slack-clock-events.test.ts",
  "tests/hardening/json-body.test.ts",
  "tests/hardening/readme-errors.test.ts",
  "tests/hardening/refusal-limit.test.ts",
  "tests/http/client-address.test.ts",
  "tests/i18n/client-namespaces.test.ts",
  "tests/i18n/link-problems.test.ts",
  "tests/i18n/message-cache.test.ts",
  "tests/notifications/email.test.ts",
  "tests/notifications/mail-config.test.ts",
  "tests/queue/lingering.test.ts",
  "tests/queue/listing.test.ts",
  "tests/queue/threads.test.ts",
  "tests/runs/bulk-decisions.test.ts",
  "tests/runs/bulk-refusals.test.ts",
  "tests/runs/conversation.test.ts",
  "tests/runs/decisions.test.ts",
  "tests/runs/deep-pages.test.ts",
  "tests/runs/durable-agents.test.ts",
  "tests/runs/earlier-in-thread.test.ts",
  "tests/runs/list-suspended-runs.test.ts",
  "tests/runs/parallel-calls.test.ts",
  "tests/runs/request-excerpt.test.ts",
  "tests/rules/dry-run.test.ts",
  "tests/store/workflows-storage.test.ts",
];

export default defineConfig({
  // The app's `@/…` imports (tsconfig paths), so tests can call a route handler directly.
  resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL("./", import.meta.url)) }] },
  test: {
    // Native drivers (better-sqlite3, pg) and the schema engine's wasm are happier in processes.
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      // Each file's databases are its own (tests/helpers/databases.ts), so these share nothing.
      { extends: true, test: { name: "in-process", include: IN_PROCESS, maxWorkers: 2, sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: {
          name: "processes",
          include: ["tests/**/*.test.ts"],
          exclude: IN_PROCESS,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          // Compiles the scripts these tests run as child processes, once (tests/helpers/child-scripts.ts).
          globalSetup: ["tests/global-setup.ts"],
        },
      },
    ],
  },
});
