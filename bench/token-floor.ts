/**
 * `tsx bench/token-floor.ts --db sqlite|postgres [--seconds 10] [--rounds 4] [--json]` (run by
 * bench/run.ts beside the open loop; `npm run bench:tokens`): the floor route (GET
 * /api/health/session, the session check and nothing else) on one production console server,
 * signed in once with a session cookie and once with an API token (`Authorization: Bearer`), each
 * with autocannon's closed loop as the open loop's saturation measures the floor. The rounds swap
 * which goes first, and each side's best round counts: on a shared machine one closed loop can
 * land on a busy moment, so these figures are for scale. What is judged (bench/targets.ts): one
 * client sending the two requests in turn (session, token, session, …), each side's median, so
 * that both see the same machine; and the two checks alone, in this process (better-auth's getSession with
 * the cookie vs checkToken), as medians of many calls: the cost of the check without HTTP and
 * Next around it. Prints both figures and their ratios.
 */
import { createTestAccount, sessionCookie, actorOf } from "../tests/helpers/accounts.ts";
import { startConsoleServer } from "../tests/helpers/console-server.ts";
import { createTestDatabase } from "../tests/helpers/databases.ts";
import { disconnectDb } from "../lib/db/client.ts";
import { accessRecorder } from "../lib/audit/access-changes.ts";
import { createToken } from "../lib/auth/tokens.ts";
import { getAuth } from "../lib/auth/auth.ts";
import { checkToken } from "../lib/auth/token-check.ts";
import { saturation, SATURATION_CONNECTIONS, type Request } from "./arrivals.ts";

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}
const db = option("db", "postgres");
if (db !== "sqlite" && db !== "postgres") throw new Error("--db must be sqlite or postgres");
const seconds = Number(option("seconds", "10"));
const rounds = Number(option("rounds", "4"));
const asJson = process.argv.includes("--json");
/** Calls per round of the in-process comparison, and request pairs of the alternating one. */
const CALLS = 300;
const PAIRS = 500;
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
    accessRecorder(actorOf(reviewer), "create-token"),
    database.url,
  );
  const floor: Request[] = [{ kind: "floor", method: "GET", path: "/api/health/session" }];
  const bearer = { authorization: `Bearer ${token}` };
  for (const credential of [cookie, bearer]) {
    const warm = await saturation(server, credential, floor, 2);
    if (warm.non2xx > 0 || warm.errors > 0) throw new Error(`warm-up: ${JSON.stringify(warm)}\n${server.output()}`);
  }
  const session: Array<Awaited<ReturnType<typeof saturation>>> = [];
  const tokenRuns: typeof session = [];
  // Each round swaps which goes first, so neither always runs on a machine the other just warmed or loaded.
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 1) tokenRuns.push(await saturation(server, bearer, floor, seconds));
    session.push(await saturation(server, cookie, floor, seconds));
    if (round % 2 === 0) tokenRuns.push(await saturation(server, bearer, floor, seconds));
  }
  const sequential = await alternating(server.url, cookie, bearer);
  const inProcess = await checkCosts(cookie, token);
  const best = (runs: typeof session) => runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  const result = {
    db,
    seconds,
    rounds,
    connections: SATURATION_CONNECTIONS,
    session: best(session),
    token: best(tokenRuns),
    ratio: 0,
    sequential,
    inProcess,
  };
  result.ratio = Math.round((result.token.requestsPerSecond / result.session.requestsPerSecond) * 1000) / 1000;
  log(
    `floor on ${db} (autocannon, ${SATURATION_CONNECTIONS} connections, best of ${rounds} × ${seconds} s): session ${result.session.requestsPerSecond} req/s (p50 ${result.session.latencyMs.p50} ms, p99 ${result.session.latencyMs.p99} ms); API token ${result.token.requestsPerSecond} req/s (p50 ${result.token.latencyMs.p50} ms, p99 ${result.token.latencyMs.p99} ms); token / session ${result.ratio.toFixed(2)}`,
  );
  log(
    `one client alternating on ${db} (median of ${PAIRS} each): session ${sequential.sessionMs} ms, API token ${sequential.tokenMs} ms; token / session ${sequential.ratio.toFixed(2)}`,
  );
  log(
    `the check alone on ${db} (median of ${CALLS} calls, best of 3 rounds): session ${inProcess.sessionMs} ms, API token ${inProcess.tokenMs} ms; token / session ${inProcess.ratio.toFixed(2)}`,
  );
  if (asJson) console.log(JSON.stringify(result));
} finally {
  await disconnectDb(database.url);
  await server.stop();
  await database.drop();
}
process.exit(0);

/** Median milliseconds of one session check and one token check, each best of three rounds of CALLS. */
async function checkCosts(cookie: string, token: string) {
  const auth = await getAuth(database.url);
  // This process is not the production server: better-auth here names its cookie without __Secure-.
  const headers = new Headers({ cookie: cookie.replace(/^__Secure-/, "") });
  if (!(await auth.api.getSession({ headers }))) throw new Error("the bench's session cookie is not accepted in process");
  process.env.DATABASE_URL = database.url; // checkToken reads the default database, as in the server
  const median = async (check: () => Promise<unknown>) => {
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      const times: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const started = performance.now();
        await check();
        times.push(performance.now() - started);
      }
      best = Math.min(best, times.sort((a, b) => a - b)[CALLS >> 1]!);
    }
    return Math.round(best * 1000) / 1000;
  };
  const sessionMs = await median(() => auth.api.getSession({ headers }));
  const tokenMs = await median(() => checkToken(token, "bench"));
  return { sessionMs, tokenMs, ratio: Math.round((tokenMs / sessionMs) * 1000) / 1000 };
}

/** One client, the floor with the cookie then with the token, PAIRS times (after 50 pairs of warm-up): each side's median ms. */
async function alternating(url: string, cookie: string, bearer: Record<string, string>) {
  const times = { session: [] as number[], token: [] as number[] };
  for (let i = 0; i < PAIRS + 50; i++) {
    for (const [side, headers] of [
      ["session", { cookie }],
      ["token", bearer],
    ] as const) {
      const started = performance.now();
      const response = await fetch(`${url}/api/health/session`, { headers });
      await response.text();
      if (response.status !== 200) throw new Error(`the floor with a ${side}: ${response.status}`);
      if (i >= 50) times[side].push(performance.now() - started);
    }
  }
  const median = (list: number[]) => Math.round(list.sort((a, b) => a - b)[list.length >> 1]! * 1000) / 1000;
  const [sessionMs, tokenMs] = [median(times.session), median(times.token)];
  return { sessionMs, tokenMs, ratio: Math.round((tokenMs / sessionMs) * 1000) / 1000 };
}
