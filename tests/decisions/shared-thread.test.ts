/**
 * Runs of different agents waiting on one memory thread, decided in one console process, on SQLite
 * and PostgreSQL. Mastra remembers per instance which run a thread is busy with, and a run that an
 * approval left waiting again keeps the thread (for 30 minutes, unless continued): another agent's
 * run on that thread then waits for it before it starts. Before the console continued each agent's
 * runs on an instance of its own, the second approval below never finished (the open-loop bench's
 * "no answer within 10 s"): here it must finish, and run its tool once.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decide } from "../../lib/decisions/decide.ts";
import { getDb } from "../../lib/db/client.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { requests } from "../../lib/mastra/demo/requests.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { findSuspendedRun } from "../../lib/runs/run-detail.ts";
import { useTestDatabase } from "../helpers/databases.ts";

/** Longer than a decision takes on a busy CI machine, far shorter than Mastra's 30 minutes. */
const DECIDED_WITHIN_MS = 30_000;

describe.each(["sqlite", "postgres"] as const)("agents sharing a thread on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  /** A run waiting, started as an agent host would (a Mastra instance of its own). */
  async function waiting(agent: "refunds" | "outreach", text: string, memory: { thread: string; resource: string }) {
    const mastra = await createConsoleMastra(database.url);
    return runUntilWaiting(mastra.getAgent(agent), text, memory);
  }
  const approve = (call: { runId: string; toolCallId: string }) =>
    within(DECIDED_WITHIN_MS, decide({ action: "approve", ...call }, { reviewer: "rita@test.example", databaseUrl: database.url }));

  it("approves one agent's call while another agent's run on the thread waits again", async () => {
    const memory = { thread: `ticket-${randomUUID()}`, resource: `cust_${randomUUID()}` };
    const refunds = await waiting(
      "refunds",
      requests.severalRefunds({
        orders: [
          { order: "ORD-7101", amount: "12.00", currency: "EUR" },
          { order: "ORD-7102", amount: "30.00", currency: "EUR" },
        ],
      }).text,
      memory,
    );
    const email = await waiting("outreach", requests.email({ to: "a@b.example", subject: "About ORD-7101" }).text, memory);
    const otherEmail = await waiting("outreach", requests.email({ to: "c@d.example", subject: "About ORD-7102" }).text, memory);

    // The refund run goes on to its second call: this process's Mastra now knows it as the thread's waiting run.
    expect((await approve(refunds)).runState).toBe("waiting-again");
    const second = {
      runId: refunds.runId,
      toolCallId: String((await findSuspendedRun(refunds.runId, database.url))!.toolCalls[0]!.toolCallId),
    };
    expect(second.toolCallId).not.toBe(refunds.toolCallId);

    // Another agent's calls on the same thread, one after the other and then two at once.
    expect((await approve(email)).runState).toBe("completed");
    const [other, refundAgain] = await Promise.all([approve(otherEmail), approve(second)]);
    expect(other.runState).toBe("completed");
    expect(refundAgain.runState).toBe("completed");

    // Each tool ran once.
    const db = await getDb(database.url);
    const effects = await db.toolEffect.findMany({ where: { threadId: memory.thread }, select: { toolCallId: true } });
    expect(effects.map((effect) => effect.toolCallId).sort()).toEqual(
      [refunds.toolCallId, second.toolCallId, email.toolCallId, otherEmail.toolCallId].sort(),
    );
  });
});

/** `work`, or a failure naming the wait once `ms` have passed (a hang fails the test instead of timing it out). */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no outcome within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
