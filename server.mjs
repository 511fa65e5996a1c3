/**
 * How the console runs in production (`npm start`): Next's documented custom server around the
 * built app (`next build` first), so that two things happen before Next sees a request.
 *
 * - The client's address is stamped in x-approvals-client-ip, replacing any the client sent: the
 *   socket peer, or, when the peer is one of TRUSTED_PROXIES, the right-most X-Forwarded-For entry
 *   that is not (lib/http/forwarded.mjs). Plain `next start` cannot tell: it keeps a client's own
 *   X-Forwarded-For, so a sign-in limit keyed on it is a limit per made-up header.
 * - A body over MAX_REQUEST_BODY_BYTES is refused with 413 without being read, and a body of
 *   unknown length (chunked) with 411, so no route reads more than that.
 * - A URL whose percent-escapes are not UTF-8 (`/api/admin/rules/%FF`) is refused with 400
 *   invalid_input on the JSON API, and made readable for a page (lib/http/request-url.mjs): Next
 *   would answer it with a plain-text 500.
 * - At most MAX_CONCURRENT_REQUESTS reads (GET, HEAD) are in Next at once; MAX_QUEUED_REQUESTS more
 *   wait in line, up to REQUEST_QUEUE_TIMEOUT_MS, and the rest are answered 503 server_busy at once
 *   (lib/http/admission.mjs). Writes, static files and the liveness check do not wait.
 *
 * It does not start at all on an unsupported Node or a checkout that is not completely installed
 * (lib/installation.mjs), when the configuration cannot work (lib/configuration.mjs), when
 * TRUSTED_PROXIES holds something that is not an address or range, or when the database lacks the
 * store's or the console's migrations or cannot be reached within DATABASE_WAIT_SECONDS
 * (lib/db/migration-status.mjs, lib/db/database-wait.mjs).
 *
 *   node server.mjs [--port 3000] [--hostname 127.0.0.1]     (or PORT and HOSTNAME)
 *
 * Plain JavaScript, run by Node as it is. The modules imported here import nothing installed; what
 * needs installed packages (Next, the store package's build) is imported once the installation
 * check passed: a static import of a missing package fails before any line of this file runs.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { refuseToStartIfMisconfigured } from "./lib/configuration.mjs";
import { createAdmission } from "./lib/http/admission.mjs";
import { CLIENT_ADDRESS_HEADER, clientAddressOf, markClientAddressesStamped, parseTrustedProxies } from "./lib/http/forwarded.mjs";
import { MAX_REQUEST_BODY_BYTES } from "./lib/http/limits.mjs";
import { answersWithJson, malformedUrlProblem, withDecodablePath } from "./lib/http/request-url.mjs";
import { securityHeaders } from "./lib/http/security-headers.mjs";
import { negotiateLocale } from "./lib/i18n/negotiate.mjs";
import { installationProblem } from "./lib/installation.mjs";
import { numericSetting, numericSettingProblem } from "./lib/numeric-settings.mjs";

const notInstalled = installationProblem();
if (notInstalled) refuseToStart(notInstalled);
// A production build is served in production mode, as `next start` does; set before Next and
// React load, since they pick their builds by it.
process.env.NODE_ENV = "production";
refuseToStartIfMisconfigured();

const { values: options } = parseArgs({ options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } } });
// Number() read "0x10" as port 16 and "abc" as a stack trace at listen(): read it as every numeric setting is.
const portProblem = numericSettingProblem(
  "PORT",
  { PORT: options.port ?? process.env.PORT },
  options.port === undefined ? "PORT" : "--port",
);
if (portProblem) refuseToStart(portProblem);
const port = numericSetting("PORT", { PORT: options.port ?? process.env.PORT });
/** Unset: every interface, like `next start`. */
const hostname = options.hostname ?? process.env.HOSTNAME;

let trustedProxies;
try {
  trustedProxies = parseTrustedProxies(process.env.TRUSTED_PROXIES);
} catch (error) {
  refuseToStart(error.message);
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Next adds these to its own responses (next.config.mjs); the body refusals carry them too. */
const REFUSAL_HEADERS = Object.fromEntries(securityHeaders({ production: true }).map(({ key, value }) => [key, value]));

const ROOT = path.dirname(fileURLToPath(import.meta.url));
/** The busy page's words in each language, from the catalogs the pages use. */
const BUSY_TEXT = Object.fromEntries(
  ["en", "ko", "zh-TW"].map((locale) => [
    locale,
    JSON.parse(readFileSync(path.join(ROOT, "messages", `${locale}.json`), "utf8")).serverBusy,
  ]),
);
const admission = createAdmission({
  maxConcurrent: numericSetting("MAX_CONCURRENT_REQUESTS"),
  maxQueued: numericSetting("MAX_QUEUED_REQUESTS"),
  maxWaitMs: numericSetting("REQUEST_QUEUE_TIMEOUT_MS"),
  maxStreamWriteMs: numericSetting("LIVE_WRITE_TIMEOUT_MS"),
  refuse: refuseBusy,
});

const [{ default: next }, { DEFAULT_DATABASE_URL }, { migrationProblemAfterWaiting }] = await Promise.all([
  import("next"),
  import("./lib/db/migration-status.mjs"),
  import("./lib/db/database-wait.mjs"),
]);
// Before Next prepares: its start (instrumentation.ts) sets recovery and event delivery going on this
// database, which would fail, and log, every second while it is not up yet. A few milliseconds when it is.
const problem = await migrationProblemAfterWaiting(process.env.DATABASE_URL || DEFAULT_DATABASE_URL, ROOT, {
  waitSeconds: numericSetting("DATABASE_WAIT_SECONDS"),
});
if (problem) refuseToStart(problem.message);
const app = next({ dev: false, hostname: hostname ?? "localhost", port });
const handle = app.getRequestHandler();
await app.prepare();
markClientAddressesStamped();

createServer((request, response) => {
  const url = request.url ?? "/";
  // A URL whose escapes are not UTF-8: Next would answer it with a plain-text 500 (lib/http/request-url.mjs).
  const urlProblem = malformedUrlProblem(url);
  const refusal = bodyRefusal(request) ?? (urlProblem && answersWithJson(url.split("?")[0]) ? [400, "invalid_input", urlProblem] : null);
  if (refusal) {
    const [status, code, message] = refusal;
    response.writeHead(status, { ...REFUSAL_HEADERS, "content-type": "application/json", connection: "close" });
    response.end(JSON.stringify({ ok: false, error: { code, message } }));
    return;
  }
  // A page's path is made readable instead: the page answers it as an id it does not know.
  if (urlProblem) request.url = withDecodablePath(url);
  delete request.headers[CLIENT_ADDRESS_HEADER];
  request.headers[CLIENT_ADDRESS_HEADER] = clientAddressOf(
    request.socket.remoteAddress,
    request.headers["x-forwarded-for"],
    trustedProxies,
  );
  const run = () =>
    handle(request, response).catch((error) => {
      console.error(error);
      if (!response.headersSent) response.statusCode = 500;
      response.end();
    });
  if (waitsForNothing(request)) run();
  else admission.admit(request, response, run, { untilHeaders: isLiveStream(url) });
}).listen(port, hostname, () => console.log(`> Agent approvals console listening on http://${hostname ?? "localhost"}:${port}`));

/** [status, code, message] for a body the console will not read, or null. Only headers are looked at. */
function bodyRefusal(request) {
  if (!BODY_METHODS.has(request.method)) return null;
  // Node refuses a request that has both, so a Transfer-Encoding here means a body of unknown length.
  if (request.headers["transfer-encoding"] !== undefined) return [411, "length_required", "Send the request body with a Content-Length."];
  if (Number(request.headers["content-length"] ?? 0) > MAX_REQUEST_BODY_BYTES) {
    return [413, "payload_too_large", `Request bodies are limited to ${MAX_REQUEST_BODY_BYTES / 1024} KiB.`];
  }
  return null;
}

/**
 * Only reads wait in line: they are what a crowd of reviewers sends, and what costs the CPU. A write
 * (a decision, a sign-in) is rare, may wait seconds on the agent's own model without using the CPU,
 * and refusing one is worse than a slow answer. The build's files (cheap, and a page let in needs
 * them) and the liveness check do not wait either.
 */
function waitsForNothing({ method, url = "" }) {
  if (method !== "GET" && method !== "HEAD") return true;
  return url.startsWith("/_next/static/") || url === "/api/health" || url.startsWith("/api/health?");
}

/** The live queue's stream (app/api/events/stream): it holds a place in line only until it answers. */
function isLiveStream(url) {
  return url === "/api/events/stream" || url.startsWith("/api/events/stream?");
}

/** 503 server_busy: a short page in the reader's language for a browser, the API's JSON for the rest. */
function refuseBusy(request, response) {
  if (response.headersSent || response.destroyed) return;
  const wantsPage = !request.url?.startsWith("/api/") && (request.headers.accept ?? "").includes("text/html");
  const locale = negotiateLocale(request.headers["accept-language"]) ?? "en";
  const text = BUSY_TEXT[wantsPage ? locale : "en"];
  const body = wantsPage
    ? `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${text.title}</title></head><body style="font-family:system-ui,sans-serif;margin:2rem"><h1>${text.title}</h1><p>${text.body}</p></body></html>`
    : JSON.stringify({ ok: false, error: { code: "server_busy", message: `${text.title}: ${text.body}` } });
  response.writeHead(503, {
    ...REFUSAL_HEADERS,
    "content-type": wantsPage ? "text/html; charset=utf-8" : "application/json",
    "retry-after": "2",
    "cache-control": "no-store",
  });
  response.end(body);
}

function refuseToStart(reason) {
  console.error(`Refusing to start: ${reason}`);
  process.exit(1);
}
