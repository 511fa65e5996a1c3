/**
 * When each listed call expires under its expiry rule (lib/decisions/expire.ts), so the queue can say
 * "expires in …": the rules are a handful of rows, read once per page; nothing is stored per call.
 */
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { expires, ruleFor } from "../decisions/expire.ts";
import type { RunDto } from "./dto.ts";

/** A function that gives a run's calls their `expiresAt` under today's rules (a call already marked expired gets none). */
export async function expiryTimes(databaseUrl: string = databaseUrlFromEnv()): Promise<(run: RunDto) => RunDto> {
  const rules = await (await getDb(databaseUrl)).expiryRule.findMany();
  if (rules.length === 0) return (run) => run;
  return (run) => ({
    ...run,
    toolCalls: run.toolCalls.map((call) => {
      const rule = ruleFor(rules, run.agentId, call.toolName);
      if (!rule || !expires(rule, call) || call.markedExpired) return call;
      return { ...call, expiresAt: new Date(Date.parse(run.suspendedAt) + rule.afterMinutes * 60_000).toISOString() };
    }),
  });
}
