/** Expiry rules for tests, written straight to the table (the admin action is tested on its own), and the clock they run against. */
import { getDb } from "../../lib/db/client.ts";

export type ExpiryRuleRow = { agentId: string; toolName?: string; afterMinutes: number; mode?: "decline" | "mark"; warnMinutes?: number };

/** Replaces every rule with `rules` (toolName "" and the schema's mode, decline, unless given). */
export async function replaceExpiryRules(databaseUrl: string, rules: ExpiryRuleRow[]): Promise<void> {
  const db = await getDb(databaseUrl);
  await db.expiryRule.deleteMany();
  await db.expiryRule.createMany({
    data: rules.map((rule) => ({ toolName: "", ...rule, updatedBy: "admin@test.example", updatedAt: new Date() })),
  });
}

/** The clock moved forward (or back) by `minutes`: expiry passes take `now`. */
export const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);
