/**
 * What the bulk decision tests share: a database that is also DATABASE_URL, three accounts, the
 * decideInBulk action called as each of them, many refund runs waiting for approval, and readers of
 * what a batch left behind.
 */
import { randomUUID } from "node:crypto";
import { afterEach, beforeAll } from "vitest";
import { decideInBulk } from "../../lib/actions/decide-in-bulk.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { actorOf, createTestAccount, type TestAccount } from "./accounts.ts";
import { useTestDatabase } from "./databases.ts";
import { refundRequest } from "./demo-runs.ts";

export type Ref = { runId: string; toolCallId: string };

export function useBulkFixture(kind: "sqlite" | "postgres") {
  const database = useTestDatabase(kind, { asDefault: true });
  const accounts: Record<"reviewer" | "other" | "support", TestAccount> = {} as never;
  beforeAll(async () => {
    [accounts.reviewer, accounts.other, accounts.support] = await Promise.all([
      createTestAccount(database.url, "reviewer", "Rita"),
      createTestAccount(database.url, "reviewer", "Otto"),
      createTestAccount(database.url, "support", "Sam"),
    ]);
  });
  // Tests that lower the refusal budget get it back afterwards.
  const previousBudget = process.env.REFUSALS_PER_MINUTE;
  afterEach(() => {
    if (previousBudget === undefined) delete process.env.REFUSALS_PER_MINUTE;
    else process.env.REFUSALS_PER_MINUTE = previousBudget;
  });

  const bulkAs = (account: TestAccount, input: unknown) => runAs(actorOf(account), () => decideInBulk(input as never));
  let order = 0;

  return {
    database,
    get reviewer() {
      return accounts.reviewer;
    },
    /** A second reviewer, who decides first. */
    get other() {
      return accounts.other;
    },
    get support() {
      return accounts.support;
    },
    bulkAs,
    /** The decideInBulk action as the reviewer calls it. */
    bulk: (input: unknown) => bulkAs(accounts.reviewer, input),

    /** `count` refund runs waiting for approval, each on its own thread, on one Mastra instance. */
    async refunds(count: number): Promise<Ref[]> {
      const agent = (await createConsoleMastra(database.url)).getAgent("refunds");
      const calls: Ref[] = [];
      for (let i = 0; i < count; i++) {
        const memory = { thread: `ticket-${randomUUID()}`, resource: `cust_${randomUUID()}` };
        const { runId, toolCallId } = await runUntilWaiting(agent, refundRequest(`ORD-${++order}`), memory);
        calls.push({ runId, toolCallId });
      }
      return calls;
    },

    /** Everything the store holds, to prove a refused request changed nothing. */
    async storeState() {
      const db = await getDb(database.url);
      const rows = await db.workflowSnapshot.findMany({ orderBy: [{ runId: "asc" }, { workflowName: "asc" }] });
      return {
        snapshots: rows.map((row) => `${row.workflowName}/${row.runId}/${row.status}/${row.version}/${row.snapshot}`),
        decisions: await db.toolCallDecision.count(),
        effects: await db.toolEffect.count(),
      };
    },

    /**
     * The batch's audit entries, and each call's as `outcome[:code]` lists keyed by tool call id;
     * `byRunCall` keys by `runId/toolCallId`, for calls of different runs that share an id (their
     * lanes run concurrently, so only the order within one call is fixed).
     */
    async auditOfBatch(batchId: string) {
      const rows = await (await getDb(database.url)).auditEvent.findMany({ where: { batchId }, orderBy: { id: "asc" } });
      const byCall: Record<string, string[]> = {};
      const byRunCall: Record<string, string[]> = {};
      for (const row of rows) {
        const entry = row.code ? `${row.outcome}:${row.code}` : row.outcome;
        (byCall[row.toolCallId] ??= []).push(entry);
        (byRunCall[`${row.runId}/${row.toolCallId}`] ??= []).push(entry);
      }
      return { rows, byCall, byRunCall };
    },

    /** The tool call ids among `calls` whose tool ran (the demo tools record one effect per call). */
    async effectsOf(calls: Ref[]) {
      const rows = await (await getDb(database.url)).toolEffect.findMany({ where: { toolCallId: { in: calls.map((c) => c.toolCallId) } } });
      return rows.map((row) => row.toolCallId).sort();
    },
  };
}
