/**
 * server.mjs's look at the database before it listens, waiting for a database that is not up yet.
 * Teams start the console and its database together (compose, Kubernetes), and a busy machine can
 * take longer than one connection timeout to answer: one failed try must not stop the console. So a
 * database that cannot be reached for a reason that may pass (not listening yet, starting up, too
 * busy, a SQLite file locked by a migration; lib/db/migration-status.mjs) is asked again, after 1 s,
 * then twice as long each time (at most 15 s), for up to DATABASE_WAIT_SECONDS, each failed try
 * logged in one line. A reason that no wait can fix (authentication, no such database, a bad URL)
 * and missing migrations are answered at once.
 *
 * Plain JavaScript so server.mjs can import it.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { databaseLabel, migrationProblem } from "./migration-status.mjs";

const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 15_000;

/**
 * migrationProblem(), asked again while the database cannot be reached for a transient reason and
 * `waitSeconds` have not passed since the first try. The last answer's message says how long it
 * waited. `log` gets one line per failed try.
 */
export async function migrationProblemAfterWaiting(databaseUrl, projectRoot, { waitSeconds, log = console.warn }) {
  const started = Date.now();
  const deadline = started + waitSeconds * 1000;
  let delay = FIRST_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    const problem = await migrationProblem(databaseUrl, projectRoot);
    if (problem?.kind !== "unreachable" || !problem.transient) return problem;
    const left = deadline - Date.now();
    if (left <= 0) {
      const waited = Math.round((Date.now() - started) / 1000);
      return {
        ...problem,
        message: `${problem.message} (${attempt} ${attempt === 1 ? "try" : "tries"} in ${waited} s; DATABASE_WAIT_SECONDS=${waitSeconds})`,
      };
    }
    const next = Math.min(delay, left);
    log(
      `Waiting for the database ${databaseLabel(databaseUrl)}: attempt ${attempt} failed (${problem.detail}); ` +
        `next try in ${seconds(next)} s (up to DATABASE_WAIT_SECONDS=${waitSeconds}).`,
    );
    await sleep(next);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}

const seconds = (milliseconds) => Number((milliseconds / 1000).toFixed(1));
