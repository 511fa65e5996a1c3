/**
 * The runs page at a big backlog: builds a private copy of the app (never the shared .next), starts
 * `next start` on it against the benchmark's SQLite database, and times server renders of `/`
 * (first page, and filtered by resource), then sums the client JavaScript the page loads (the
 * /_next/static scripts its HTML references), raw and gzip.
 * usage: page.ts <database url> <resourceId>   (prints JSON)
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { BENCH_DIR } from "./backlog.ts";
import { stats } from "./timing.ts";

const [url, resourceId] = process.argv.slice(2) as [string, string];
const root = path.dirname(BENCH_DIR);
const app = "/tmp/bench-app";
const port = 3917;

// A copy of the sources (no .next; node_modules hard-linked), rebuilt every time.
rmSync(app, { recursive: true, force: true });
mkdirSync(app);
execFileSync("sh", [
  "-c",
  `tar -C "${root}" --exclude=./.next --exclude=./node_modules --exclude=./bench/out --exclude=./scratch --exclude=./data --exclude=./test-results --exclude=./playwright-report --exclude=./.git -cf - . | tar -C "${app}" -xf -`,
]);
// Turbopack does not resolve through a symlinked node_modules outside the app: hard links (no copy).
execFileSync("cp", ["-al", path.join(root, "node_modules"), path.join(app, "node_modules")]);
const buildStarted = performance.now();
execFileSync(path.join(app, "node_modules/.bin/next"), ["build"], {
  cwd: app,
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, DATABASE_URL: url, NEXT_TELEMETRY_DISABLED: "1" },
});
const buildSeconds = (performance.now() - buildStarted) / 1000;

// The console may require signing in (lib/auth, when present): create the demo reviewer account in
// the benchmark database with the copy's own code, and render as that reviewer.
const hasAuth = existsSync(path.join(app, "lib/auth/users.ts"));
if (hasAuth) {
  writeFileSync(
    path.join(app, "bench-accounts.ts"),
    `import { ensureDemoAccounts } from "./lib/mastra/demo/accounts.ts";\nawait ensureDemoAccounts(process.env.DATABASE_URL);\nprocess.exit(0);\n`,
  );
  execFileSync(process.execPath, ["--import", "tsx", "bench-accounts.ts"], {
    cwd: app,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: url },
  });
}

const server = spawn(path.join(app, "node_modules/.bin/next"), ["start", "-p", String(port)], {
  cwd: app,
  env: {
    ...process.env,
    DATABASE_URL: url,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    BETTER_AUTH_URL: `http://127.0.0.1:${port}`,
    BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET ?? randomBytes(32).toString("base64"),
  },
  stdio: ["ignore", "ignore", "inherit"],
  detached: true,
});
const stop = () => {
  try {
    process.kill(-server.pid!, "SIGKILL");
  } catch {}
};
process.on("exit", stop);

const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/api/health`)).status < 500) break;
  } catch {}
  if (i > 300) throw new Error("next start did not come up");
  await new Promise((r) => setTimeout(r, 100));
}

let cookie = "";
if (hasAuth) {
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email: "reviewer@demo.example", password: "demo-reviewer-password" }),
  });
  cookie = (response.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
  if (!response.ok || !cookie) throw new Error(`sign-in for the benchmark failed: HTTP ${response.status}`);
}

async function render(pathname: string): Promise<{ ms: number; html: string }> {
  const t = performance.now();
  const response = await fetch(base + pathname, { headers: { accept: "text/html", cookie }, redirect: "manual" });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`${pathname}: HTTP ${response.status}`);
  return { ms: performance.now() - t, html };
}

/**
 * The excerpts' cost in server time and bytes: the first page rendered in alternating rounds with
 * the request excerpts of the runs it names (every run on it, shown or deferred) and with them set
 * to NULL (as before the column existed), then put back. Alternating cancels the drift of a shared
 * machine, which made one block of each differ by ±15% from run to run.
 */
async function renderWithoutExcerpts(html: string) {
  const runIds = [...new Set([...html.matchAll(/\\"runId\\":\\"([0-9a-f-]{36})\\"/g)].map((match) => match[1]!))];
  const db = new Database(url.replace(/^file:/, ""));
  const saved = db
    .prepare(`SELECT workflow_name, run_id, request_excerpt FROM workflow_snapshots WHERE run_id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(runIds)) as Array<{ workflow_name: string; run_id: string; request_excerpt: string | null }>;
  const put = db.prepare(`UPDATE workflow_snapshots SET request_excerpt = ? WHERE workflow_name = ? AND run_id = ?`);
  const restore = () => db.transaction(() => saved.forEach((row) => put.run(row.request_excerpt, row.workflow_name, row.run_id)))();
  const withSamples: number[] = [];
  const withoutSamples: number[] = [];
  let bareHtml = "";
  try {
    for (let round = 0; round < 4; round++) {
      withSamples.push(...(await timeRenders("/", 2, 8)).samples);
      db.transaction(() => saved.forEach((row) => put.run(null, row.workflow_name, row.run_id)))();
      const bare = await timeRenders("/", 2, 8);
      withoutSamples.push(...bare.samples);
      bareHtml = bare.html;
      restore();
    }
    return {
      runs: runIds.length,
      render: stats(withoutSamples),
      withRender: stats(withSamples),
      htmlBytes: bareHtml.length,
      htmlGzip: gzipSync(bareHtml).length,
    };
  } finally {
    restore();
    db.close();
  }
}

async function timeRenders(pathname: string, warmups = 5, count = 30) {
  for (let i = 0; i < warmups; i++) await render(pathname);
  const samples: number[] = [];
  let html = "";
  for (let i = 0; i < count; i++) {
    const r = await render(pathname);
    samples.push(r.ms);
    html = r.html;
  }
  return { stats: stats(samples), samples, html };
}

const first = await timeRenders("/");
const filtered = await timeRenders(`/?resourceId=${encodeURIComponent(resourceId)}`);
const withoutExcerpts = await renderWithoutExcerpts(first.html);
// A browser that runs modules never fetches a noModule script (the polyfills for old browsers): not counted.
const scripts = [
  ...new Set([...first.html.matchAll(/<script([^>]+)src="([^"]+)"[^>]*>/g)].filter((m) => !/\bnomodule\b/i.test(m[0])).map((m) => m[2]!)),
].filter((s) => s.startsWith("/_next/static/"));
let bytes = 0;
let gzip = 0;
for (const src of scripts) {
  const file = path.join(app, ".next", "static", decodeURIComponent(src.replace(/^\/_next\/static\//, "").replace(/\?.*$/, "")));
  const body = existsSync(file) ? readFileSync(file) : Buffer.from(await (await fetch(base + src)).arrayBuffer());
  bytes += body.length;
  gzip += gzipSync(body, { level: 9 }).length;
}
const looksRight = first.html.includes("Pending runs") && !first.html.includes("/sign-in?");
stop();
console.log(
  JSON.stringify({
    signedIn: hasAuth,
    buildSeconds,
    renderFirst: first.stats,
    renderFiltered: filtered.stats,
    htmlBytes: first.html.length,
    htmlGzip: gzipSync(first.html).length,
    // The same first page with its runs' request excerpts taken away (issue 24: what the column costs the page).
    withoutExcerpts,
    clientJs: { scripts: scripts.length, bytes, gzip },
    looksRight,
  }),
);
process.exit(0);
