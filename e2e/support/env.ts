/** Shared settings of the end-to-end suite (used by playwright.config.ts, the db prep script and the fixtures). */

/** The suite's own SQLite database; relative `file:` paths resolve against the project root. */
export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL || "file:./e2e/.data/console.db";

export const E2E_PORT = Number(process.env.E2E_PORT || 3100);
