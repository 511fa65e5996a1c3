/**
 * A history of decisions for the benchmarks of rules over the past (bench/history-child.ts): `size`
 * approval calls decided over the last 30 days, written as the console writes a decided call
 * (lib/decisions/ledger.ts, lib/events/waiting.ts, lib/rules/auto-decide.ts, lib/insights):
 * - a tool_call_decisions row (applied; 90% by people, 7% by a rule, 3% expired);
 * - its `recorded` audit row with the call's arguments and its `applied` row (audit_events);
 * - its call_reviews row, written when the console claimed it, with when it started waiting (minutes
 *   to hours before the decision) and how it ended;
 * - for half of the calls (those claimed while some rule existed) a call_rule_matches row.
 * Agents, tools and arguments are the demo's; 2,000 customers (`cust_<n>`) and 200 accounts of two
 * tenants (`acme:eu:<n>`, `globex/<n>`); people approve small refunds and decline large ones, with
 * a few exceptions, so there is something to suggest and something to disagree with. Written in
 * the order they were decided, as the console appends them. Deterministic per size. Rows go in 500
 * to a statement.
 */
import { contentHash } from "../lib/audit/chain.ts";
import { randomUUID } from "node:crypto";
import { join, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import { executeStatement, statementTransaction } from "@agent-approvals/mastra-store";
import { getDb } from "../lib/db/client.ts";

const DAY_MS = 86_400_000;
const BATCH = 500;
const TOOLS = [
  { agentId: "refunds", toolName: "issueRefund" },
  { agentId: "billing", toolName: "issueRefund" },
  { agentId: "customer-records", toolName: "deleteCustomerRecord" },
  { agentId: "outreach", toolName: "sendEmail" },
] as const;
const REVIEWERS = ["rita@demo.example", "bob@demo.example", "ana@demo.example", "li@demo.example"];

/** A number from 0 to 1 drawn from `seed` (mulberry32): the same history for the same size. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Generated {
  decision: Sql;
  audit: Sql[];
  match: Sql | null;
  review: Sql;
}

function generated(index: number, size: number, next: () => number, now: number): Generated {
  const tool = TOOLS[Math.floor(next() * TOOLS.length)]!;
  const roll = next();
  const resourceId =
    roll < 0.8
      ? `cust_${Math.floor(next() * 2_000)}`
      : roll < 0.9
        ? `acme:eu:${Math.floor(next() * 100)}`
        : `globex/${Math.floor(next() * 100)}`;
  const amount = Math.round(next() * 1_000 * 100) / 100;
  const args =
    tool.toolName === "issueRefund"
      ? {
          orderId: `ORD-${index}`,
          customerEmail: `${resourceId}@customer.example`,
          amount,
          currency: next() < 0.9 ? "EUR" : "USD",
          reason: "parcel arrived damaged",
        }
      : tool.toolName === "sendEmail"
        ? {
            to: `${resourceId}@customer.example`,
            subject: "Your order",
            body: `Hello ${index}`,
            template: next() < 0.5 ? "shipping" : "refund",
          }
        : { customerId: resourceId, scope: next() < 0.7 ? "all" : "marketing" };
  // People approve refunds under 300 and decline the rest, 2% the other way; the rest mostly approved.
  const large = tool.toolName === "issueRefund" && amount >= 300;
  const by = next();
  const action = by < 0.03 ? "expire" : (large ? next() < 0.02 : next() >= 0.02) ? "approve" : "decline";
  const ruleDecided = action !== "expire" && by < 0.1;
  const reviewer = action === "expire" ? "expiry" : ruleDecided ? "rule 'small refunds' (version 1)" : REVIEWERS[index % REVIEWERS.length]!;
  const reason = action === "decline" ? "over the limit for this customer" : action === "expire" ? "expired: no reviewer within 1 h" : null;
  // In the order they were decided, as the console appends them (their tables' pages follow time).
  const decidedAt = new Date(now - 30 * DAY_MS + Math.floor(((index + next()) / size) * 30 * DAY_MS));
  const waitingSince = new Date(decidedAt.getTime() - Math.floor(next() * 4 * 3_600_000) - 1_000);
  const runId = `hist-run-${index}`;
  const toolCallId = `call_${index}`;
  const id = randomUUID();
  const threadId = `thread-${resourceId}`;
  return {
    decision: sql`(${id}, ${runId}, ${toolCallId}, ${action}, ${"applied"}, ${reviewer}, ${tool.agentId}, ${threadId}, ${resourceId}, ${tool.toolName}, ${reason}, ${null}, ${"done"}, ${null}, ${1}, ${null}, ${decidedAt}, ${decidedAt}, ${decidedAt}, ${null}, ${action === "expire" ? "decline" : null}, ${ruleDecided || action === "expire" ? null : "console"}, ${ruleDecided ? "rule_bench" : null}, ${ruleDecided ? 1 : null})`,
    audit: ["recorded", "applied"].map((outcome, step) => {
      const row = {
        at: new Date(decidedAt.getTime() + step * 40),
        reviewer,
        action,
        outcome,
        runId,
        toolCallId,
        agentId: tool.agentId,
        threadId,
        resourceId,
        toolName: tool.toolName,
        args: step === 0 ? JSON.stringify(args) : null,
        reason,
        decisionId: id,
      };
      // Chained by the database's trigger, as the console's own rows (lib/audit/chain.ts).
      return sql`(${row.at}, ${reviewer}, ${action}, ${outcome}, ${runId}, ${toolCallId}, ${row.agentId}, ${threadId}, ${resourceId}, ${row.toolName}, ${row.args}, ${reason}, ${id}, ${contentHash(row)})`;
    }),
    match:
      index % 2 === 0
        ? sql`(${runId}, ${toolCallId}, ${ruleDecided ? "rule_bench" : null}, ${ruleDecided ? 1 : null}, ${ruleDecided ? "approve" : null}, ${new Date(waitingSince.getTime() + 900)}, ${new Date(waitingSince.getTime() + 1_000)}, ${null})`
        : null,
    review: sql`(${runId}, ${toolCallId}, ${tool.agentId}, ${tool.toolName}, ${resourceId}, ${waitingSince}, ${decidedAt}, ${reviewer}, ${action}, ${action === "expire" ? "expiry" : ruleDecided ? "rule" : "person"}, ${"unrated"})`,
  };
}

/** Writes the history into the (migrated, empty) database at `url`; returns how many decisions. */
export async function generateDecisionHistory(url: string, size: number, now: number = Date.now()): Promise<number> {
  const db = await getDb(url);
  const next = random(size);
  for (let start = 0; start < size; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, size - start) }, (_, offset) => generated(start + offset, size, next, now));
    const matches = rows.flatMap((row) => (row.match ? [row.match] : []));
    await statementTransaction(db, async (tx) => {
      await tx.execute(sql`INSERT INTO tool_call_decisions (id, run_id, tool_call_id, action, state, reviewer, agent_id, thread_id, resource_id, tool_name, reason, resume_data, answer, error, attempts, tool_ran_at, lease_until, decided_at, updated_at, batch_id, expiry_mode, via, rule_id, rule_version)
        VALUES ${join(rows.map((row) => row.decision))}`);
      await tx.execute(sql`INSERT INTO audit_events (at, reviewer, action, outcome, run_id, tool_call_id, agent_id, thread_id, resource_id, tool_name, args, reason, decision_id, content_hash)
        VALUES ${join(rows.flatMap((row) => row.audit))}`);
      if (matches.length) {
        await tx.execute(
          sql`INSERT INTO call_rule_matches (run_id, tool_call_id, rule_id, rule_version, effect, matched_at, settled_at, risk) VALUES ${join(matches)}`,
        );
      }
      await tx.execute(sql`INSERT INTO call_reviews (run_id, tool_call_id, agent_id, tool_name, resource_id, waiting_since, decided_at, decided_by, action, source, risk)
        VALUES ${join(rows.map((row) => row.review))}`);
    });
  }
  // What autovacuum does after a bulk load (it is off on the development machines); SQLite gathers its own.
  if (!url.startsWith("file:")) await executeStatement(db, sql`ANALYZE`);
  return size;
}
