/**
 * Rules for a spec, made through the product's own store (lib/rules/store.ts) as an admin's save
 * would make them (the `addRule` and `ruleMatched` fixtures).
 */
import { expect } from "@playwright/test";
import type { z } from "zod";
import { getDb } from "../../lib/db/client.ts";
import { createRule, deleteRule } from "../../lib/rules/store.ts";
import { ruleInputSchema, type RuleDefinition } from "../../lib/rules/validations.ts";

/** A rule as the admin form writes it (lib/rules/validations.ts), before zod fills its defaults. */
export type RuleDraft = z.input<typeof ruleInputSchema>;

const ADMIN = "e2e-admin@test.example";

/** Saves `draft` enabled (unless it says otherwise). */
export async function createTestRule(databaseUrl: string, draft: RuleDraft): Promise<RuleDefinition> {
  return createRule(await getDb(databaseUrl), ruleInputSchema.parse({ enabled: true, ...draft }), ADMIN);
}

/** Deletes it, if a spec has not already. */
export async function deleteTestRule(databaseUrl: string, rule: RuleDefinition): Promise<void> {
  await deleteRule(await getDb(databaseUrl), rule.id, ADMIN).catch(() => {});
}

/** Waits until the console's events loop has evaluated the rules for the call (its risk and effect are known). */
export async function waitForRuleMatch(databaseUrl: string, { runId, toolCallId }: { runId: string; toolCallId: string }): Promise<void> {
  const db = await getDb(databaseUrl);
  await expect
    .poll(async () => Boolean(await db.callRuleMatch.findUnique({ where: { runId_toolCallId: { runId, toolCallId } } })), {
      message: `no rule was evaluated for ${runId}`,
      timeout: 20_000,
    })
    .toBe(true);
}
