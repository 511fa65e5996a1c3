/** Shared settings of the end-to-end suite (used by playwright.config.ts, the db prep script and the fixtures). */

/** The suite's own SQLite database; relative `file:` paths resolve against the project root. */
export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL || "file:./e2e/.data/console.db";

export const E2E_PORT = Number(process.env.E2E_PORT || 3100);

/** The console under test and the fixtures sign session cookies with the same secret. */
export const E2E_AUTH_SECRET = "e2e-secret-for-the-approvals-console-suite-0123456789abcdef";
/** The key the console signs oversight evidence with in the suite (e2e/46-evidence.spec.ts checks it). */
export const E2E_EVIDENCE_KEY = "e2e-evidence-signing-key-0123456789abcdef";
process.env.BETTER_AUTH_SECRET ??= E2E_AUTH_SECRET;

/** Where the signed-in reviewer's browser state is kept between the setup project and the specs. */
export const REVIEWER_STATE = "e2e/.auth/reviewer.json";

/**
 * Remote mode (e2e/27-remote-mode.spec.ts): the example Mastra server and a second console with
 * MASTRA_SERVER_URL pointing at it, on a database of their own. Ports in the 3300s.
 */
export const E2E_REMOTE_DATABASE_URL = process.env.E2E_REMOTE_DATABASE_URL || "file:./e2e/.data/remote.db";
export const E2E_REMOTE_PORT = Number(process.env.E2E_REMOTE_PORT || 3310);
export const E2E_MASTRA_SERVER_PORT = Number(process.env.E2E_MASTRA_SERVER_PORT || 3311);
export const E2E_MASTRA_SERVER_TOKEN = "e2e-mastra-server-token";
/**
 * `E2E_REMOTE=0`: neither remote-mode server is started (nor its database prepared), and the
 * remote-mode spec is skipped, saying why. For a run of other specs only, like CI's floor pass.
 */
export const E2E_REMOTE = process.env.E2E_REMOTE !== "0";
