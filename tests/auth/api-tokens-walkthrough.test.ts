/**
 * The API-token walkthrough of docs/api-tokens.md, command by command, against a real console
 * server on SQLite and PostgreSQL: the curl lines are read from the page itself and sent as curl
 * would send them (its -X, -H, -d, -c and -b), with the page's placeholders (…) filled in from the
 * answers before them. So the walkthrough cannot drift from what the server does.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

/** The first sh block of docs/api-tokens.md: one command per entry, continuations joined, comments dropped. */
function walkthroughCommands(page = readFileSync("docs/api-tokens.md", "utf8")): string[] {
  const section = page.slice(page.indexOf("# API tokens"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('docs/api-tokens.md: no ```sh block after "# API tokens"');
  return block
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line.startsWith("curl "));
}

/** Splits a command as sh would for what the walkthrough uses: words, and '…' quoted without escapes. */
function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|(\S+)/g)].map(([, quoted, bare]) => quoted ?? bare!);
}

interface Curl {
  method: string;
  url: string;
  headers: Record<string, string>;
  data?: string;
  saveCookies: boolean;
  sendCookies: boolean;
}

function parseCurl(command: string): Curl {
  const [curl, ...rest] = words(command);
  expect(curl).toBe("curl");
  const parsed: Curl = { method: "GET", url: "", headers: {}, saveCookies: false, sendCookies: false };
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    if (word === "-X") parsed.method = rest[++i]!;
    else if (word === "-H") {
      const [name, ...value] = rest[++i]!.split(":");
      parsed.headers[name!.trim().toLowerCase()] = value.join(":").trim();
    } else if (word === "-d") {
      parsed.data = rest[++i]!;
      if (parsed.method === "GET") parsed.method = "POST";
    } else if (word === "-c") parsed.saveCookies = rest[++i] === "jar";
    else if (word === "-b") parsed.sendCookies = rest[++i] === "jar";
    else if (!word.startsWith("-")) parsed.url = word;
    else throw new Error(`The walkthrough uses a curl option this test does not know: ${word}`);
  }
  return parsed;
}

const EVIDENCE_KEY = "walkthrough-evidence-key-0123456789abcdef";

describe.each(["sqlite", "postgres"] as const)("the API-token walkthrough of docs/api-tokens.md on %s", { timeout: 300_000 }, (kind) => {
  const database = useTestDatabase(kind);
  let server: ConsoleServer;
  let admin: TestAccount;

  beforeAll(async () => {
    [server, admin] = await Promise.all([
      startConsoleServer(database.url, { EVIDENCE_SIGNING_KEY: EVIDENCE_KEY }),
      createTestAccount(database.url, "admin", `Ada-${kind}`),
    ]);
  }, 150_000);
  afterAll(() => server?.stop());

  it("creates a service account and its token, approves a waiting call with it, revokes it, verifies the log and exports the evidence", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-WALK", "9.00 EUR"));
    const commands = walkthroughCommands();
    expect(commands).toHaveLength(8);
    const jar = new Map<string, string>();
    const known: Record<string, string> = {};
    const answers: Array<{ status: number; body: any }> = [];
    for (const command of commands) {
      const filled = command
        .replaceAll("localhost:3000", server.url.replace("http://", ""))
        .replace("ada@example.com", admin.email)
        .replace('"password":"…"', `"password":"${admin.password}"`)
        .replace('"runId":"…"', `"runId":"${run.runId}"`)
        .replace('"toolCallId":"…"', `"toolCallId":"${run.ref.toolCallId}"`)
        .replaceAll("sa_…", known.serviceAccountId ?? "sa_…")
        .replaceAll("tok_…", known.tokenId ?? "tok_…")
        .replaceAll("aat_…", known.token ?? "aat_…");
      expect(filled, "every placeholder is known by the time it is used").not.toContain("…");
      const curl = parseCurl(filled);
      const headers = {
        ...curl.headers,
        ...(curl.sendCookies ? { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") } : {}),
      };
      const response = await fetch(`http://${curl.url.replace(/^https?:\/\//, "")}`, { method: curl.method, headers, body: curl.data });
      if (curl.saveCookies) {
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(";");
          const at = pair!.indexOf("=");
          jar.set(pair!.slice(0, at), pair!.slice(at + 1));
        }
      }
      const body = await response.json();
      answers.push({ status: response.status, body });
      if (body?.data?.name === "ci-bot") known.serviceAccountId = body.data.id;
      if (typeof body?.data?.token === "string") [known.token, known.tokenId] = [body.data.token, body.data.id];
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 201, 201, 200, 200, 200, 200, 200]);
    expect(answers[1]!.body.data).toMatchObject({ name: "ci-bot", role: "reviewer" });
    expect(answers[2]!.body.data).toMatchObject({ name: "deploy pipeline", scopes: ["queue:read", "decisions:write"], status: "active" });
    expect(JSON.stringify(answers[3]!.body)).toContain(run.runId);
    expect(answers[4]!.body).toMatchObject({ ok: true });
    expect(answers[5]!.body.data).toMatchObject({ status: "revoked" });
    expect(answers[6]!.body.data).toMatchObject({ ok: true });
    const evidence = answers[7]!.body;
    expect(evidence).toMatchObject({ kind: "agent-approvals-oversight-evidence", chain: { ok: true } });
    expect(evidence.decisions).toContainEqual(
      expect.objectContaining({ runId: run.runId, reviewer: "service-account:ci-bot", authMethod: "token", tokenName: "deploy pipeline" }),
    );

    const recorded = await (await getDb(database.url)).auditEvent.findFirstOrThrow({ where: { runId: run.runId, outcome: "recorded" } });
    expect(recorded).toMatchObject({
      reviewer: "service-account:ci-bot",
      via: "api",
      authMethod: "token",
      tokenId: known.tokenId,
      tokenName: "deploy pipeline",
    });
    // Revoked: the same token is refused from now on.
    const after = await fetch(`${server.url}/api/queue`, { headers: { authorization: `Bearer ${known.token}` } });
    expect(after.status).toBe(401);
  });
});
