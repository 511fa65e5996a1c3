/**
 * Suggested rules: rules that would have decided, the way people did, calls people kept deciding
 * the same way. Read from the decisions of a period (past-decisions.ts), then:
 *
 * 1. Group the approval calls people decided by agent and tool.
 * 2. Within a group, the resource scopes: any resource, and each resource prefix (a resourceId up to
 *    and including its last `:`, `/` or `-`: `acme:eu:42` → `acme:eu:`; one without a separator is
 *    taken exactly) with at least `minCalls` calls. Asked for a resource prefix, only resources
 *    starting with it, and the prefix itself as the widest scope.
 * 3. For each scope and each way (approve, decline), the candidate conditions on the arguments
 *    (proposal-conditions.ts): low-cardinality fields held to the values decided that way, an upper
 *    bound on amounts for approving.
 * 4. Each candidate rule is replayed over the scope's decisions by the backtest's own replay
 *    (backtest.ts): offered when it decides at least `minCalls` of the calls people decided and
 *    people decided at most `maxWrongShare` of those the other way (0: never).
 * 5. Offered widest first (most calls decided, then fewest conditions); a candidate whose calls an
 *    offered rule of the same agent, tool and way already decides all of is left out, and so is one
 *    an existing rule already is.
 * Approving is never suggested for calls a rule rates high or critical: a rule that could match
 * them (its agent, tool and resource empty or overlapping the scope, whatever its conditions).
 */
import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { evaluatedAt, keptBacktest, replay, type Replay, type ReplayedRule } from "./backtest.ts";
import type { ProposalsResult, RuleProposal } from "./dto.ts";
import { compileRules, ruleMatches } from "./match.ts";
import { lastDays, readPastDecisions, type PastDecision } from "./past-decisions.ts";
import { candidateConditions } from "./proposal-conditions.ts";
import { listRules } from "./store.ts";
import { ruleInputSchema, type Condition, type RuleDefinition } from "./validations.ts";

export interface ProposalOptions {
  days: number;
  minCalls: number;
  maxWrongShare: number;
  agentId: string | null;
  toolName: string | null;
  resourcePrefix: string | null;
  page: number;
  pageSize: number;
  now?: Date;
}

/** Where a rule applies among resources: any, a prefix, or one resource exactly. */
interface Scope {
  resource: string | null;
  resourceMatch: "exact" | "prefix";
}

interface Candidate {
  rule: ReplayedRule;
  replayed: Replay;
  /** The counted decisions it matches. */
  covers: Set<PastDecision>;
}

const RESOURCE_MAX = 200;
const DECLINE_REASON = "Declined by a rule made from history: people declined calls like this one.";

/** The resource prefix a call is grouped under: up to and including its last separator, else the whole resource exactly. */
export function resourceScopeOf(resourceId: string): Scope {
  const cut = Math.max(resourceId.lastIndexOf(":"), resourceId.lastIndexOf("/"), resourceId.lastIndexOf("-"));
  return cut >= 0 ? { resource: resourceId.slice(0, cut + 1), resourceMatch: "prefix" } : { resource: resourceId, resourceMatch: "exact" };
}

const inScope = (resourceId: string | null, scope: Scope) =>
  scope.resource === null ||
  (resourceId !== null && (scope.resourceMatch === "prefix" ? resourceId.startsWith(scope.resource) : resourceId === scope.resource));

export async function proposeRules(db: Db, options: ProposalOptions): Promise<ProposalsResult> {
  const { days, minCalls, maxWrongShare, page, pageSize } = options;
  const period = lastDays(days, options.now);
  const widest: Scope = { resource: options.resourcePrefix, resourceMatch: "prefix" };
  const [decisions, rules] = await Promise.all([
    readPastDecisions(db, { agentId: options.agentId, toolName: options.toolName, ...widest }, period),
    listRules(db),
  ]);
  // Rules that exist already, and candidates found already (the same rule can come from two scopes or two variants).
  const known = new Set(rules.map(ruleKey));
  const groups = new Map<string, PastDecision[]>();
  for (const decision of decisions) {
    if (decision.kind !== "approval" || decision.toolName === null || !inScope(decision.resourceId, widest)) continue;
    const key = `${decision.agentId}\u0000${decision.toolName}`;
    const group = groups.get(key);
    if (group) group.push(decision);
    else groups.set(key, [decision]);
  }
  let considered = 0;
  const rated = new Map<string, { agentId: string; toolName: string }>();
  const candidates: Candidate[] = [];
  for (const group of groups.values()) {
    const { agentId, toolName } = group[0]! as { agentId: string; toolName: string };
    const decidedByPeople = group.filter(byPeople);
    considered += decidedByPeople.length;
    for (const scope of scopesOf(decidedByPeople, widest, minCalls)) {
      const scoped = group.filter((decision) => inScope(decision.resourceId, scope));
      const people = scoped.filter(byPeople);
      if (people.length < minCalls) continue;
      const approving = !ratesHigh(rules, agentId, toolName, scope);
      if (!approving) rated.set(`${agentId}\u0000${toolName}`, { agentId, toolName });
      for (const { effect, conditions, agreeing } of candidateConditions(people)) {
        // A rule that decides `matched` calls, at most a share of them wrongly, agrees with at least the rest.
        if ((effect === "approve" && !approving) || agreeing < (1 - maxWrongShare) * minCalls) continue;
        const rule = proposedRule(agentId, toolName, scope, conditions, effect);
        if (!rule || known.has(ruleKey(rule)) || !mayPass(rule, people, minCalls, maxWrongShare)) continue;
        known.add(ruleKey(rule));
        const replayed = replay(rule, scoped);
        if (replayed.matched < minCalls || replayed.disagreed > maxWrongShare * replayed.matched) continue;
        candidates.push({ rule, replayed, covers: new Set(replayed.matchedIndexes.map((index) => scoped[index]!)) });
      }
    }
  }
  const offered = widestFirst(candidates);
  const first = (page - 1) * pageSize;
  const context = { days, period, include: "people" as const };
  const proposals: RuleProposal[] = [];
  for (const { rule, replayed } of offered.slice(first, first + pageSize)) {
    proposals.push({
      key: createHash("sha256").update(ruleKey(rule)).digest("hex").slice(0, 16),
      rule,
      backtest: await keptBacktest(db, replayed, context),
    });
  }
  return {
    days,
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    minCalls,
    maxWrongShare,
    considered,
    total: offered.length,
    page,
    pageSize,
    proposals,
    ratedHigh: [...rated.values()],
  };
}

const byPeople = (decision: PastDecision) => decision.decidedBy === "person" && decision.action !== "expire";

/**
 * Whether `rule` can pass, told quickly: over people's decisions in its scope (approval calls, so
 * what it does is its effect), with the replay's own matcher, stopping at the first disagreement
 * more than the share allows of them all. Only a rule that can pass is replayed (which counts it).
 */
function mayPass(rule: ReplayedRule, people: readonly PastDecision[], minCalls: number, maxWrongShare: number): boolean {
  const [compiled] = compileRules([{ ...rule, enabled: true }]);
  const allowed = maxWrongShare * people.length;
  let matched = 0;
  let disagreed = 0;
  for (const decision of people) {
    if (!ruleMatches(compiled!, decision, evaluatedAt(decision))) continue;
    matched++;
    if (decision.action !== rule.effect && ++disagreed > allowed) return false;
  }
  return matched >= minCalls && disagreed <= maxWrongShare * matched;
}

/** The widest scope, then each resource prefix within it that has at least `minCalls` calls. */
function scopesOf(people: PastDecision[], widest: Scope, minCalls: number): Scope[] {
  const counts = new Map<string, { scope: Scope; calls: number }>();
  for (const decision of people) {
    if (decision.resourceId === null) continue;
    const scope = resourceScopeOf(decision.resourceId);
    const key = `${scope.resourceMatch}\u0000${scope.resource}`;
    const entry = counts.get(key) ?? { scope, calls: 0 };
    entry.calls++;
    counts.set(key, entry);
  }
  const narrower = [...counts.values()]
    .filter(({ scope, calls }) => calls >= minCalls && scope.resource!.length <= RESOURCE_MAX)
    .filter(({ scope }) => widest.resource === null || (scope.resource!.startsWith(widest.resource) && scope.resource !== widest.resource))
    .map(({ scope }) => scope)
    .sort((a, b) => (a.resource! < b.resource! ? -1 : 1));
  return [widest, ...narrower];
}

/** Whether a rule rates high or critical the calls of this agent and tool in this scope (whatever its conditions). */
function ratesHigh(rules: RuleDefinition[], agentId: string, toolName: string, scope: Scope): boolean {
  return rules.some(
    (rule) =>
      (rule.risk === "high" || rule.risk === "critical") &&
      rule.callKind !== "input" &&
      (rule.agentId === null || rule.agentId === agentId) &&
      (rule.toolName === null || rule.toolName === toolName) &&
      resourcesOverlap(rule, scope),
  );
}

/** Whether some resource is in both: the rule's (any, a prefix, exactly one) and the scope's. */
function resourcesOverlap(rule: Scope, scope: Scope): boolean {
  if (rule.resource === null || scope.resource === null) return true;
  if (rule.resourceMatch === "exact" && scope.resourceMatch === "exact") return rule.resource === scope.resource;
  if (rule.resourceMatch === "exact") return rule.resource.startsWith(scope.resource);
  if (scope.resourceMatch === "exact") return scope.resource.startsWith(rule.resource);
  return rule.resource.startsWith(scope.resource) || scope.resource.startsWith(rule.resource);
}

function proposedRule(
  agentId: string,
  toolName: string,
  scope: Scope,
  conditions: Condition[],
  effect: "approve" | "decline",
): ReplayedRule | null {
  const where = scope.resource === null ? "" : scope.resourceMatch === "prefix" ? ` for ${scope.resource}…` : ` for ${scope.resource}`;
  const name = `${effect === "approve" ? "Approve" : "Decline"} ${toolName} of ${agentId}${where}`;
  const parsed = ruleInputSchema.safeParse({
    name: name.length > 100 ? `${name.slice(0, 99)}…` : name,
    enabled: false,
    agentId,
    toolName,
    resource: scope.resource,
    resourceMatch: scope.resourceMatch,
    callKind: "approval",
    conditions,
    effect,
    reason: effect === "decline" ? DECLINE_REASON : null,
    risk: effect === "approve" ? "low" : "medium",
  });
  if (!parsed.success) return null;
  const { position: _position, ...rule } = parsed.data;
  return rule;
}

/** What makes two rules the same rule for suggesting: everything but name, enabled, risk and place. */
function ruleKey(rule: ReplayedRule): string {
  const { agentId, toolName, resource, resourceMatch, callKind, conditions, effect } = rule;
  return JSON.stringify([agentId, toolName, resource, resource === null ? null : resourceMatch, callKind, conditions, effect]);
}

/** Most calls decided first, then fewest conditions, widest scope; one whose calls an offered rule of the same tool and way decides already is left out. */
function widestFirst(candidates: Candidate[]): Candidate[] {
  const ordered = [...candidates].sort(
    (a, b) =>
      b.replayed.matched - a.replayed.matched ||
      a.rule.conditions.length - b.rule.conditions.length ||
      (a.rule.resource?.length ?? -1) - (b.rule.resource?.length ?? -1) ||
      (a.rule.name < b.rule.name ? -1 : a.rule.name > b.rule.name ? 1 : 0),
  );
  const offered: Candidate[] = [];
  for (const candidate of ordered) {
    const subsumed = offered.some(
      (other) =>
        other.rule.agentId === candidate.rule.agentId &&
        other.rule.toolName === candidate.rule.toolName &&
        other.rule.effect === candidate.rule.effect &&
        [...candidate.covers].every((decision) => other.covers.has(decision)),
    );
    if (!subsumed) offered.push(candidate);
  }
  return offered;
}
