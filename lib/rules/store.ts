/**
 * Rules in the database: the ordered list, and every change kept as a version (rule_versions: who,
 * when, the whole rule). A change bumps `version`; deleting keeps the versions and adds a "deleted"
 * one. Decisions made by a rule name the rule and version on their own row, so nothing here touches
 * what a rule decided.
 */
import { randomUUID } from "node:crypto";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { Rule } from "../generated/sqlite/client.ts";
import type { KeptBacktest } from "./dto.ts";
import type { Condition, RuleDefinition, RuleInput } from "./validations.ts";

export function toDefinition(row: Rule): RuleDefinition {
  return {
    id: row.id,
    position: row.position,
    version: row.version,
    name: row.name,
    enabled: row.enabled,
    agentId: row.agentId,
    toolName: row.toolName,
    resource: row.resource,
    resourceMatch: row.resourceMatch === "prefix" ? "prefix" : "exact",
    callKind: row.callKind === "approval" || row.callKind === "input" ? row.callKind : null,
    conditions: JSON.parse(row.conditions) as Condition[],
    effect: row.effect as RuleDefinition["effect"],
    reason: row.reason,
    approvals: row.approvals,
    risk: row.risk as RuleDefinition["risk"],
    expiresAt: row.expiresAt?.toISOString() ?? null,
    trustedBy: row.trustedBy,
  };
}

/** Every rule in order (position, then id); `enabledOnly` for the matcher. */
export async function listRules(db: Db, { enabledOnly = false } = {}): Promise<RuleDefinition[]> {
  const rows = await db.rule.findMany({ where: enabledOnly ? { enabled: true } : {}, orderBy: [{ position: "asc" }, { id: "asc" }] });
  return rows.map(toDefinition);
}

export async function findRule(db: Db, id: string): Promise<RuleDefinition> {
  const row = await db.rule.findUnique({ where: { id } });
  if (!row) throw new AppError("rule_not_found", `No rule "${id.slice(0, 100)}".`);
  return toDefinition(row);
}

export interface RuleVersionRow {
  version: number;
  changedBy: string;
  changedAt: string;
  change: string;
  rule: RuleDefinition;
  backtest: KeptBacktest | null;
}

/** Every kept version of a rule, newest first (a deleted rule's too). */
export async function listRuleVersions(db: Db, ruleId: string): Promise<RuleVersionRow[]> {
  const rows = await db.ruleVersion.findMany({ where: { ruleId }, orderBy: { version: "desc" } });
  return rows.map((row) => ({
    version: row.version,
    changedBy: row.changedBy,
    changedAt: row.changedAt.toISOString(),
    change: row.change,
    rule: JSON.parse(row.rule) as RuleDefinition,
    backtest: row.backtest === null ? null : (JSON.parse(row.backtest) as KeptBacktest),
  }));
}

/** One version of a rule as it was when kept (what a decision by that version did). */
export async function findRuleVersion(db: Db, ruleId: string, version: number): Promise<RuleDefinition | null> {
  const row = await db.ruleVersion.findUnique({ where: { ruleId_version: { ruleId, version } } });
  return row ? (JSON.parse(row.rule) as RuleDefinition) : null;
}

function columns(input: Omit<RuleInput, "position">) {
  return {
    name: input.name,
    enabled: input.enabled,
    agentId: input.agentId,
    toolName: input.toolName,
    resource: input.resource,
    resourceMatch: input.resourceMatch,
    callKind: input.callKind,
    conditions: JSON.stringify(input.conditions),
    effect: input.effect,
    reason: input.reason,
    approvals: input.approvals,
    risk: input.risk,
  };
}

/**
 * Creates a rule, last in the list unless `input.position` says where. A rule `trusted` by a
 * reviewer (lib/rules/trust.ts) goes first, before every other rule, so it wins, and ends at
 * `expiresAt`; its first version names the reviewer like any change. A suggested rule's `backtest`
 * (lib/rules/proposals.ts) is kept with its first version.
 */
export async function createRule(
  db: Db,
  input: RuleInput,
  by: string,
  { trusted, backtest }: { trusted?: { expiresAt: Date }; backtest?: KeptBacktest } = {},
): Promise<RuleDefinition> {
  return db.$transaction(async (tx) => {
    const now = new Date();
    const row = await tx.rule.create({
      data: {
        id: `rule_${randomUUID().replaceAll("-", "").slice(0, 16)}`,
        position: input.position ?? (trusted ? (await edgePosition(tx, "asc")) - 1 : (await edgePosition(tx, "desc")) + 1),
        ...columns(input),
        version: 1,
        updatedBy: by,
        updatedAt: now,
        expiresAt: trusted?.expiresAt ?? null,
        trustedBy: trusted ? by : null,
      },
    });
    const rule = toDefinition(row);
    await tx.ruleVersion.create({
      data: {
        ruleId: row.id,
        version: 1,
        changedBy: by,
        changedAt: now,
        change: "created",
        rule: JSON.stringify(rule),
        backtest: backtest ? JSON.stringify(backtest) : null,
      },
    });
    return rule;
  });
}

/** The first ("asc") or last ("desc") position in the list; an empty list starts at 0 (first: 1, last: -1). */
async function edgePosition(tx: Pick<Db, "rule">, order: "asc" | "desc"): Promise<number> {
  const edge = await tx.rule.findFirst({ orderBy: { position: order }, select: { position: true } });
  return edge ? edge.position : order === "asc" ? 1 : -1;
}

/** Replaces a rule's fields (and position when given); a new version, kept. A trusted rule keeps its end and who trusted it. */
export async function updateRule(db: Db, id: string, input: RuleInput, by: string): Promise<RuleDefinition> {
  return db.$transaction(async (tx) => {
    const current = await tx.rule.findUnique({ where: { id } });
    if (!current) throw new AppError("rule_not_found", `No rule "${id.slice(0, 100)}".`);
    const now = new Date();
    const version = current.version + 1;
    const row = await tx.rule.update({
      where: { id },
      data: { ...columns(input), position: input.position ?? current.position, version, updatedBy: by, updatedAt: now },
    });
    const rule = toDefinition(row);
    await tx.ruleVersion.create({
      data: { ruleId: id, version, changedBy: by, changedAt: now, change: "updated", rule: JSON.stringify(rule) },
    });
    return rule;
  });
}

/** Deletes a rule; its versions stay, with a last "deleted" one. */
export async function deleteRule(db: Db, id: string, by: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const current = await tx.rule.findUnique({ where: { id } });
    if (!current) throw new AppError("rule_not_found", `No rule "${id.slice(0, 100)}".`);
    await tx.rule.delete({ where: { id } });
    const rule = { ...toDefinition(current), version: current.version + 1, enabled: false };
    await tx.ruleVersion.create({
      data: { ruleId: id, version: rule.version, changedBy: by, changedAt: new Date(), change: "deleted", rule: JSON.stringify(rule) },
    });
  });
}

/** How the history and a late reviewer name a rule's decision. */
export const ruleReviewer = (rule: Pick<RuleDefinition, "name" | "version">) => `rule '${rule.name}' (version ${rule.version})`;
