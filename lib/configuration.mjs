/**
 * Settings without which the console must not serve at all, checked before it does: by server.mjs
 * before it listens, by instrumentation.ts when plain `next start` starts, and by /api/health.
 * Better than starting, answering health checks, and failing every page with a 500. A numeric
 * setting outside its range is one of them (lib/numeric-settings.mjs): a console quietly running
 * on a default nobody chose looks fine until the day it matters. Plain JavaScript so server.mjs
 * can import it (types: configuration.d.mts).
 */
import { nodeVersionProblem } from "./node-version.mjs";
import { numericSettingsProblem } from "./numeric-settings.mjs";

/** Why this environment cannot run the console, in one line, or null when it can. */
export function configurationProblem(env = process.env) {
  return nodeVersionProblem() ?? authSecretProblem(env) ?? numericSettingsProblem(env);
}

/** Why sessions cannot be signed here (production without BETTER_AUTH_SECRET), or null. */
export function authSecretProblem(env = process.env) {
  if (env.NODE_ENV === "production" && env.CONSOLE_DEMO !== "1" && !env.BETTER_AUTH_SECRET) {
    return "BETTER_AUTH_SECRET is not set: set it to a long random string (e.g. `openssl rand -base64 32`), the same on every instance.";
  }
  return null;
}

/**
 * Ends the process with the problem in one line when there is one. An exit, not a throw: `next
 * start` logs a throw from instrumentation's register(), then stays up answering every request 500.
 */
export function refuseToStartIfMisconfigured(env = process.env) {
  const problem = configurationProblem(env);
  if (!problem) return;
  console.error(`Refusing to start: ${problem}`);
  process.exit(1);
}
