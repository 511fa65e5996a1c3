/**
 * Next runs this once when a console server starts. The work itself (recovery, outside decisions,
 * expiry, event delivery, planner statistics) is Node-only and lives in lib/server-work.ts, imported
 * only in the Node runtime: Next compiles this file for the Edge runtime too, and code of that work
 * written here made every build warn that a Node API is not supported there.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") await (await import("./lib/server-work.ts")).startServerWork();
}
