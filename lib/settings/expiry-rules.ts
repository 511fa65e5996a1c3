/**
 * The expiry rules admins set (lib/decisions/expire.ts applies them): read, saved and removed here, checked with
 * zod on the server whatever the browser sent.
 */
import { z } from "zod";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { EXPIRY_MODES } from "../decisions/expire.ts";
import { AppError } from "../errors.ts";
import { wholeNumberInput } from "../numeric-input.ts";
import { MINUTES_PER_YEAR } from "../numeric-settings.mjs";
import { listConsoleAgents } from "../queue/agents.ts";
import { ID_MAX_LENGTH, idTextProblem } from "../safe-text.ts";

/** A year: longer is no expiry at all. */
const MAX_MINUTES = MINUTES_PER_YEAR;

const name = (what: string, { optional }: { optional: boolean }) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .max(ID_MAX_LENGTH, { error: `${what} is longer than ${ID_MAX_LENGTH} characters` })
    .refine((text) => optional || text.length > 0, { error: `${what} is required` })
    .refine((text) => !idTextProblem(text), { error: (issue) => `${what} ${idTextProblem(String(issue.input))}` });

export const expiryRuleInput = z
  .object({
    agentId: name("Agent", { optional: false }),
    /** Blank: every tool of the agent. */
    toolName: name("Tool", { optional: true }).default(""),
    afterMinutes: wholeNumberInput("afterMinutes", {
      min: 1,
      max: MAX_MINUTES,
      notWhole: `Expires after (afterMinutes) must be a whole number of minutes from 1 to ${MAX_MINUTES} (a year)`,
      tooSmall: "A call must be allowed to wait at least 1 minute (afterMinutes)",
      tooBig: `Expires after (afterMinutes) is at most ${MAX_MINUTES} minutes (a year)`,
    }),
    /** decline: through the agent (the default); mark: only recorded, the agent is not told. */
    mode: z.enum(EXPIRY_MODES, { error: 'Mode must be "decline" or "mark"' }).default("decline"),
    /** The form's blank field, null or absent: no `call.expiring` warning. Only a blank field: "  " is a typo, not a choice. */
    warnMinutes: z.preprocess(
      (value) => (value === "" || value === null ? undefined : value),
      wholeNumberInput("warnMinutes", {
        min: 1,
        max: MAX_MINUTES - 1,
        notWhole: `Warn before (warnMinutes) must be a whole number of minutes, or blank for no warning`,
        tooSmall: "Warn at least 1 minute before expiry (warnMinutes), or leave it blank",
        tooBig: `Warn before (warnMinutes) is at most ${MAX_MINUTES - 1} minutes`,
      }).optional(),
    ),
  })
  .strict()
  .refine((rule) => rule.warnMinutes === undefined || rule.warnMinutes < rule.afterMinutes, {
    error: "The warning must come before the expiry: fewer warning minutes than the minutes it expires after",
    path: ["warnMinutes"],
  });

export const expiryRuleKey = z
  .object({ agentId: name("Agent", { optional: false }), toolName: name("Tool", { optional: true }).default("") })
  .strict();

export type ExpiryRule = {
  agentId: string;
  toolName: string;
  afterMinutes: number;
  mode: string;
  warnMinutes: number | null;
  updatedBy: string;
  updatedAt: Date;
};

export async function listExpiryRules(databaseUrl: string = databaseUrlFromEnv()): Promise<ExpiryRule[]> {
  const db = await getDb(databaseUrl);
  return db.expiryRule.findMany({ orderBy: [{ agentId: "asc" }, { toolName: "asc" }] });
}

/** Creates or replaces the rule of (agent, tool). Only agents the console serves can have one. */
export async function saveExpiryRule(rule: z.output<typeof expiryRuleInput>, updatedBy: string, databaseUrl = databaseUrlFromEnv()) {
  const agents = await listConsoleAgents();
  if (!agents.some((agent) => agent.id === rule.agentId && agent.kind !== "workflow")) {
    throw new AppError("invalid_input", `No agent "${rule.agentId}" here: expiry rules are set per agent the console serves.`);
  }
  const db = await getDb(databaseUrl);
  const data = {
    afterMinutes: rule.afterMinutes,
    mode: rule.mode,
    warnMinutes: rule.warnMinutes ?? null,
    updatedBy,
    updatedAt: new Date(),
  };
  return db.expiryRule.upsert({
    where: { agentId_toolName: { agentId: rule.agentId, toolName: rule.toolName } },
    create: { agentId: rule.agentId, toolName: rule.toolName, ...data },
    update: data,
  });
}

export async function deleteExpiryRule(key: z.output<typeof expiryRuleKey>, databaseUrl = databaseUrlFromEnv()): Promise<boolean> {
  const db = await getDb(databaseUrl);
  const { count } = await db.expiryRule.deleteMany({ where: key });
  return count === 1;
}
