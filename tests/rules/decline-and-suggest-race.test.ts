/**
 * Decline and suggest in a race, over HTTP against two real console servers on one database (SQLite
 * and PostgreSQL): 20 reviewers send decline / decline-and-suggest / approve on one call at once.
 * Exactly one wins and everybody else is told who; the winner's words and its suggestion are one
 * unit: when a decline-and-suggest wins, exactly its suggestion is stored and the reason the model
 * read names it (the model then calls again with those arguments, approved as suggested); when
 * anything else wins, no suggestion is left for the call. The tool runs at most once per call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { findSuspendedRun } from "../../lib/runs/run-detail.ts";
import { canonicalJson, suggestedArgumentsIn } from "../../lib/suggestion-wording.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { postDecision, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

const REVIEWERS = 20;
const ROUNDS = 8;
type Action = "decline_and_suggest" | "decline" | "approve";
/** Round 0: everyone suggests (two suggestions racing lost both, issue 42); later rounds mix, each in another order. */
const actionOf = (round: number, reviewer: number): Action =>
  round === 0
    ? "decline_and_suggest"
    : (["decline_and_suggest", "decline", "decline_and_suggest", "approve"] as const)[(reviewer + round) % 4]!;

describe.each(["sqlite", "postgres"] as const)("decline and suggest in a race on %s", { timeout: 300_000 }, (kind) => {
  let database: TestDatabase;
  let servers: ConsoleServer[] = [];
  let reviewers: { email: string; cookie: string }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    servers = await Promise.all([startConsoleServer(database.url), startConsoleServer(database.url)]);
    const accounts = await Promise.all(
      Array.from({ length: REVIEWERS }, (_, i) => createTestAccount(database.url, "reviewer", `racer-${String(i + 1).padStart(2, "0")}`)),
    );
    reviewers = await Promise.all(
      accounts.map(async (account) => ({ email: account.email, cookie: await sessionCookie(database.url, account) })),
    );
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await disconnectDb(database.url);
    await database.drop();
  });

  it(`${REVIEWERS} reviewers at once, ${ROUNDS} calls: one wins, and a winning suggestion is stored and named`, async () => {
    const db = await getDb(database.url);
    for (let round = 0; round < ROUNDS; round++) {
      const order = `ORD-77${round}`;
      const run = await suspendDemoRun(database.url, "refunds", refundRequest(order, "80.00 EUR"));
      const asked = (await findSuspendedRun(run.runId, database.url))!.toolCalls[0]!.args as Record<string, unknown>;
      // Each suggestion with other arguments; a decline's reason names its reviewer.
      const requests = reviewers.map((_, i) => {
        const action = actionOf(round, i);
        if (action === "approve") return { action, ...run.ref };
        if (action === "decline") return { action, ...run.ref, reason: `racer ${i}` };
        return { action, ...run.ref, reason: `racer ${i}`, args: JSON.stringify({ ...asked, amount: i + 1 }) };
      });
      const responses = await Promise.all(requests.map((body, i) => postDecision(servers[i % 2]!, reviewers[i]!.cookie, body)));

      const winners = responses.flatMap((response, i) => (response.status === 200 ? [i] : []));
      expect(winners, JSON.stringify(responses.map((response) => response.status))).toHaveLength(1);
      const won = winners[0]!;
      const winner = reviewers[won]!.email;
      const winning = requests[won]!;
      for (const [i, response] of responses.entries()) {
        if (i === won) continue;
        expect(response.status, JSON.stringify(response.body)).toBe(409);
        expect(response.body.error).toMatchObject({ code: "already_decided", priorDecision: { reviewer: winner } });
        expect(response.body.error.message).toContain(winner);
      }

      const decision = await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: run.ref } });
      expect(decision).toMatchObject({ reviewer: winner, action: winning.action === "approve" ? "approve" : "decline" });
      const suggestions = await db.suggestion.findMany({ where: run.ref });
      const effects = () => db.toolEffect.findMany({ where: { resourceId: run.resource } });
      if (winning.action === "decline_and_suggest") {
        const suggested = JSON.parse((winning as { args: string }).args) as Record<string, unknown>;
        expect(suggestions.map((row) => [row.suggestedBy, row.args])).toEqual([[winner, canonicalJson(suggested)]]);
        expect(decision.reason).toMatch(new RegExp(`^racer ${won}\\. A reviewer declined this call of issueRefund`));
        expect(suggestedArgumentsIn(decision.reason!)).toEqual(suggested);
        // The model called again with the winner's arguments; a server's loop approves that call as suggested, once.
        await expect
          .poll(async () => (await effects()).map((effect) => JSON.parse(effect.input).amount), { timeout: 60_000 })
          .toEqual([suggested.amount]);
        expect(await db.toolCallDecision.findFirst({ where: { runId: run.runId, action: "approve" } })).toMatchObject({
          reviewer: `suggestion by ${winner}`,
        });
      } else {
        expect(suggestions).toEqual([]);
        expect((await effects()).map((effect) => effect.toolCallId)).toEqual(winning.action === "approve" ? [run.ref.toolCallId] : []);
      }
      console.log(`[race ${kind}] round ${round}: ${winning.action} by ${winner} won`);
    }
  });
});
