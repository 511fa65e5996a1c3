/**
 * The console's one reading of numbers from outside: every numeric environment setting is defined
 * here (range, default; the table in docs/settings.md is checked against these),
 * and `wholeNumberOf` is the one parser, also behind every numeric field of a request
 * (lib/numeric-input.ts). `Number()` and `z.coerce` read `true` as 1, `[5]` as 5, `"0x10"` as 16,
 * `"1e3"` as 1000 and `" "` as 0, so a typo became a value nobody chose; here a number is a JSON
 * number or plain decimal digits, and anything else is refused. Plain JavaScript so server.mjs can
 * import it (types: numeric-settings.d.mts); no imports, safe anywhere.
 */

/** A year of minutes: longer than any wait worth a target or a rule. */
export const MINUTES_PER_YEAR = 365 * 24 * 60;

/**
 * Every numeric environment setting. A bad value stops the console at start (lib/configuration.mjs),
 * so code reading one at run time (`numericSetting`) only ever sees a valid value or the default.
 */
export const NUMERIC_SETTINGS = Object.freeze({
  REVIEW_SLA_MINUTES: { min: 1, max: MINUTES_PER_YEAR, default: 60, unit: "minutes" },
  // How long a reviewer's "decline and suggest" waits for the agent's next call (lib/suggestions).
  SUGGESTION_WINDOW_MINUTES: { min: 1, max: 7 * 24 * 60, default: 30, unit: "minutes" },
  // The review targets of calls a rule gave a risk (lib/queue/review-target.ts); REVIEW_SLA_MINUTES
  // stays the target of calls no rule rated.
  REVIEW_TARGET_CRITICAL_MINUTES: { min: 1, max: MINUTES_PER_YEAR, default: 15, unit: "minutes" },
  REVIEW_TARGET_HIGH_MINUTES: { min: 1, max: MINUTES_PER_YEAR, default: 60, unit: "minutes" },
  REVIEW_TARGET_MEDIUM_MINUTES: { min: 1, max: MINUTES_PER_YEAR, default: 240, unit: "minutes" },
  REVIEW_TARGET_LOW_MINUTES: { min: 1, max: MINUTES_PER_YEAR, default: 1_440, unit: "minutes" },
  REFUSALS_PER_MINUTE: { min: 1, max: 100_000, default: 30, unit: "refusals" },
  ANONYMOUS_REFUSALS_PER_MINUTE: { min: 1, max: 100_000, default: 120, unit: "refusals" },
  AUTH_SIGN_IN_ATTEMPTS_PER_MINUTE: { min: 1, max: 100_000, default: 5, unit: "attempts" },
  // A bulk request holds at most 100 calls (LIMITS.bulkCalls): more at once could never run.
  BULK_CONCURRENCY: { min: 1, max: 100, default: 4, unit: "threads" },
  WEBHOOKS_POLL_MS: { min: 100, max: 60_000, default: 1_000, unit: "milliseconds" },
  // The crash tests hold leases of a few hundred milliseconds.
  // How often the audit log's head (its last place and hash) is announced as an `audit.checkpoint`
  // event (lib/audit/checkpoint.ts), for a copy outside the database; 0 sends none.
  AUDIT_CHECKPOINT_MINUTES: { min: 0, max: MINUTES_PER_YEAR, default: 60, unit: "minutes" },
  DECISION_LEASE_MS: { min: 100, max: 3_600_000, default: 60_000, unit: "milliseconds" },
  MASTRA_SERVER_TIMEOUT_MS: { min: 1_000, max: 3_600_000, default: 120_000, unit: "milliseconds" },
  PORT: { min: 1, max: 65_535, default: 3_000, unit: "a TCP port" },
  // server.mjs's admission control (lib/http/admission.mjs): reads in Next at once, reads waiting
  // for a place, and how long one may wait before it is answered 503 server_busy. 8 at once kept
  // an instance's CPU busy on a local database (bench/open-loop.ts: 4 served 24% more than 16).
  MAX_CONCURRENT_REQUESTS: { min: 1, max: 10_000, default: 8, unit: "requests" },
  MAX_QUEUED_REQUESTS: { min: 0, max: 100_000, default: 500, unit: "requests" },
  REQUEST_QUEUE_TIMEOUT_MS: { min: 100, max: 600_000, default: 2_000, unit: "milliseconds" },
  // How long server.mjs waits at start for a database that is not up yet (lib/db/database-wait.mjs):
  // a console started with its database (compose, Kubernetes) must not give up after one try. 0: one try.
  DATABASE_WAIT_SECONDS: { min: 0, max: 3_600, default: 60, unit: "seconds" },
  // The live queue (lib/live): how much of the change feed is kept for streams that resume, how
  // often an instance on SQLite checks the feed's head, and how often an idle stream sends a heartbeat.
  LIVE_FEED_KEEP_MINUTES: { min: 1, max: 7 * 24 * 60, default: 1_440, unit: "minutes" },
  LIVE_FEED_KEEP_ROWS: { min: 1_000, max: 10_000_000, default: 100_000, unit: "changes" },
  LIVE_POLL_MS: { min: 50, max: 60_000, default: 500, unit: "milliseconds" },
  LIVE_HEARTBEAT_MS: { min: 1_000, max: 300_000, default: 15_000, unit: "milliseconds" },
  // A stream whose events wait unsent this long (its reader stopped reading) is cut (lib/http/admission.mjs).
  LIVE_WRITE_TIMEOUT_MS: { min: 1_000, max: 600_000, default: 30_000, unit: "milliseconds" },
  // Open live streams one instance holds, and of them one user's (lib/live/limits.ts).
  LIVE_STREAMS_PER_INSTANCE: { min: 1, max: 100_000, default: 5_000, unit: "streams" },
  LIVE_STREAMS_PER_USER: { min: 1, max: 100_000, default: 1_000, unit: "streams" },
  // Calls one user may have open at once across their tabs (presence, lib/live/presence.ts).
  LIVE_PRESENCE_CALLS_PER_USER: { min: 1, max: 10_000, default: 100, unit: "calls" },
});

const DIGITS = /^[0-9]+$/;

/**
 * A whole number given as a JSON number or as plain decimal digits ("15", as a form or the
 * environment sends it), else undefined: no sign, point, exponent, hex, spaces, booleans or arrays.
 * Huge values come back as they are, for the caller's range to refuse.
 */
export function wholeNumberOf(value) {
  if (typeof value === "number") return Number.isInteger(value) ? value : undefined;
  if (typeof value === "string" && DIGITS.test(value)) return Number(value);
  return undefined;
}

/** Why the environment's value of `name` cannot be used, in one sentence, or null when it can (unset or empty: the default). */
export function numericSettingProblem(name, env = process.env, label = name) {
  const setting = NUMERIC_SETTINGS[name];
  const raw = env[name];
  if (raw === undefined || raw === "") return null;
  const value = wholeNumberOf(raw);
  if (value !== undefined && value >= setting.min && value <= setting.max) return null;
  const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
  return `${label} must be a whole number from ${setting.min} to ${setting.max} (${setting.unit}; unset: ${setting.default}), not ${JSON.stringify(shown)}.`;
}

/** Every unusable numeric setting of `env`, in one line, or null. */
export function numericSettingsProblem(env = process.env) {
  const problems = Object.keys(NUMERIC_SETTINGS)
    .map((name) => numericSettingProblem(name, env))
    .filter(Boolean);
  return problems.length ? problems.join(" ") : null;
}

/** The setting's value, or its default when unset; throws the problem for a value outside its range. */
export function numericSetting(name, env = process.env) {
  const problem = numericSettingProblem(name, env);
  if (problem) throw new Error(problem);
  const raw = env[name];
  return raw === undefined || raw === "" ? NUMERIC_SETTINGS[name].default : Number(raw);
}
