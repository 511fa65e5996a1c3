/**
 * `tsx bench/token-floor.ts --db sqlite|postgres [--seconds 10] [--rounds 2] [--json]` (run by
 * bench/run.ts beside the open loop): the floor route (GET /api/health/session, the session check
 * and nothing else) on one production console server, signed in once with a session cookie and
 * once with an API token (`Authorization: Bearer`), each with autocannon's closed loop as the open
 * loop's saturation measures the floor. The rounds alternate, so a machine that slows down during
 * the run slows both alike; each side's best round counts. Prints both figures and their ratio.
 */
import { createTestAccount, sessionCookie, actorOf } from "../tests/helpers/accounts.ts";
import { startConsoleServer } from "../tests/helpers/console-server.ts";
import { createTestDatabase } from "../tests/helpers/databases.ts";
import { disconnectDb } from "../lib/db/client.ts";
import { createToken } from "../lib/auth/tokens.ts";
import { saturation, SATURATION_CONNECTIONS, type Request } from "./arrivals.ts";

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}
const db = option("db", "postgres");
if (db !== "sqlite" && db !== "postgres") throw new Error("--db must be sqlite or postgres");
const seconds = Number(option("seconds", "10"));
const rounds = Number(option("rounds", "2"));
const asJson = process.argv.includes("--json");
const log = (line: string) => (asJson ? console.error(line) : console.log(line));

const database = await createTestDatabase(db);
const server = await startConsoleServer(database.url);
try {
  const reviewer = await createTestAccount(database.url, "reviewer", "Token bench");
  const cookie = await sessionCookie(database.url, reviewer);
  const { token } = await createToken(
    { name: "bench", scopes: ["queue:read"] },
    { userId: reviewer.id, role: "reviewer" },
    actorOf(reviewer),
    database.url,
  );
  await disconnectDb(database.url);
  const floor: Request[] = [{ kind: "floor", method: "GET", path: "/api/health/session" }];
  const bearer = { authorization: `Bearer ${token}` };
  for (const credential of [cookie, bearer]) {
    const warm = await saturation(server, credential, floor, 2);
    if (warm.non2xx > 0 || warm.errors > 0) throw new Error(`warm-up: ${JSON.stringify(warm)}\n${server.output()}`);
  }
  const session: Array<Awaited<ReturnType<typeof saturation>>> = [];
  const tokenRuns: typeof session = [];
  for (let round = 0; round < rounds; round++) {
    session.push(await saturation(server, cookie, floor, seconds));
    tokenRuns.push(await saturation(server, bearer, floor, seconds));
  }
  const best = (runs: typeof session) => runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  const result = { db, seconds, rounds, connections: SATURATION_CONNECTIONS, session: best(session), token: best(tokenRuns), ratio: 0 };
  result.ratio = Math.round((result.token.requestsPerSecond / result.session.requestsPerSecond) * 1000) / 1000;
  log(
    `floor on ${db} (autocannon, ${SATURATION_CONNECTIONS} connections, best of ${rounds} × ${seconds} s): session ${result.session.requestsPerSecond} req/s (p50 ${result.session.latencyMs.p50} ms, p99 ${result.session.latencyMs.p99} ms); API token ${result.token.requestsPerSecond} req/s (p50 ${result.token.latencyMs.p50} ms, p99 ${result.token.latencyMs.p99} ms); token / session ${result.ratio.toFixed(2)}`,
  );
  if (asJson) console.log(JSON.stringify(result));
} finally {
  await server.stop();
  await database.drop();
}
process.exit(0);
