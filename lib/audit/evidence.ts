/**
 * Oversight evidence for a period (GET /api/admin/evidence, /history → Export evidence): every
 * decision made in it with who decided, how they signed in, what they were shown, when, through
 * what, under which rule version; the rules in force and the expiry rules; every change of access
 * (evidence-access.ts); and the audit chain's verification and head.
 * Read in keyset pages and written as it is read, so memory stays flat however long the period.
 * docs/evidence.md says what each field is evidence of.
 */
import { z } from "zod";
import type { Db } from "../db/client.ts";
import type { ToolCallDecision } from "../generated/sqlite/client.ts";
import { accessChangeRows } from "./evidence-access.ts";
import { csvField } from "./queries.ts";
import { verifyAuditChain, type ChainVerification } from "./verify.ts";

const DAY_MS = 86_400_000;
const PAGE = 500;

export const evidenceInput = z
  .object({
    /** First and last day of the period (UTC), both included; by default the last 30 days. */
    from: z.iso.date({ error: "from must be a day, YYYY-MM-DD" }).optional(),
    to: z.iso.date({ error: "to must be a day, YYYY-MM-DD" }).optional(),
    format: z.enum(["json", "csv"], { error: 'format must be "json" or "csv"' }).default("json"),
  })
  .strict()
  .refine((input) => !input.from || !input.to || input.from <= input.to, { message: "from must not be after to", path: ["to"] });

export interface Period {
  from: Date;
  /** Exclusive: the start of the day after the last one. */
  until: Date;
}

export function periodOf(input: { from?: string; to?: string }, now: Date = new Date()): Period {
  const until = input.to
    ? new Date(Date.parse(`${input.to}T00:00:00Z`) + DAY_MS)
    : new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
  const from = input.from ? new Date(`${input.from}T00:00:00Z`) : new Date(until.getTime() - 30 * DAY_MS);
  return { from, until };
}

/** One decision as evidence. The one place its fields are chosen (the CSV's columns are its keys). */
export function evidenceRow(
  decision: ToolCallDecision,
  recorded: RecordedEntry | undefined,
  view: ViewEntry | undefined,
  signInMethods: string[],
) {
  return {
    decisionId: decision.id,
    decidedAt: decision.decidedAt.toISOString(),
    reviewer: decision.reviewer,
    decidedBy: decision.ruleId
      ? "rule"
      : decision.action === "expire"
        ? "expiry"
        : decision.reviewer.startsWith("suggestion by ")
          ? "suggestion"
          : "person",
    // How this decision's request was authenticated (password, sso, token; empty for the console's
    // own: rules, expiry, recovery, or a decision recorded before the column), and with which token.
    authMethod: recorded?.authMethod ?? "",
    tokenId: recorded?.tokenId ?? "",
    tokenName: recorded?.tokenName ?? "",
    // How the person can sign in at all (their account's methods).
    reviewerSignInMethods: signInMethods.join(" "),
    via: decision.via ?? "",
    action: decision.action,
    state: decision.state,
    agentId: decision.agentId,
    toolName: decision.toolName ?? "",
    runId: decision.runId,
    toolCallId: decision.toolCallId,
    resourceId: decision.resourceId ?? "",
    argsDigest: decision.argsDigest ?? recorded?.argsDigest ?? "",
    argsDigestFrom: recorded?.argsDigestFrom ?? "",
    openedAt: view?.openedAt.toISOString() ?? "",
    contextOpened: view ? view.contextOpenedAt !== null : false,
    ruleId: decision.ruleId ?? "",
    ruleVersion: decision.ruleVersion ?? "",
    reason: decision.reason ?? "",
    auditSeq: recorded?.chainSeq ?? "",
    auditHash: recorded?.hash ?? "",
  };
}

export type EvidenceRow = ReturnType<typeof evidenceRow>;
type RecordedEntry = {
  decisionId: string | null;
  chainSeq: number | null;
  hash: string | null;
  argsDigest: string | null;
  argsDigestFrom: string | null;
  authMethod: string | null;
  tokenId: string | null;
  tokenName: string | null;
};
type ViewEntry = { runId: string; toolCallId: string; reviewer: string; openedAt: Date; contextOpenedAt: Date | null };

/** The period's decisions as evidence rows, a page at a time, oldest first. */
export async function* evidenceRows(db: Db, period: Period): AsyncGenerator<EvidenceRow[]> {
  const methods = new Map<string, string[]>();
  let after: { decidedAt: Date; id: string } | null = null;
  for (;;) {
    const page: ToolCallDecision[] = await db.toolCallDecision.findMany({
      where: {
        decidedAt: { gte: period.from, lt: period.until },
        ...(after ? { OR: [{ decidedAt: { gt: after.decidedAt } }, { decidedAt: after.decidedAt, id: { gt: after.id } }] } : {}),
      },
      orderBy: [{ decidedAt: "asc" }, { id: "asc" }],
      take: PAGE,
    });
    if (page.length === 0) return;
    const runIds = [...new Set(page.map((decision) => decision.runId))];
    const [recorded, views] = await Promise.all([
      db.auditEvent.findMany({
        where: { runId: { in: runIds }, outcome: "recorded" },
        select: {
          decisionId: true,
          chainSeq: true,
          hash: true,
          argsDigest: true,
          argsDigestFrom: true,
          authMethod: true,
          tokenId: true,
          tokenName: true,
        },
      }),
      db.callView.findMany({ where: { runId: { in: runIds } } }),
    ]);
    await signInMethodsOf(db, page, methods);
    const byDecision = new Map(recorded.map((entry) => [entry.decisionId, entry]));
    const byView = new Map(views.map((view) => [`${view.runId}\u0000${view.toolCallId}\u0000${view.reviewer}`, view]));
    yield page.map((decision) =>
      evidenceRow(
        decision,
        byDecision.get(decision.id),
        byView.get(`${decision.runId}\u0000${decision.toolCallId}\u0000${decision.reviewer}`),
        methods.get(decision.reviewer) ?? [],
      ),
    );
    const last = page.at(-1)!;
    after = { decidedAt: last.decidedAt, id: last.id };
  }
}

/** The sign-in methods of the page's reviewers not seen yet (decisions name people by email). */
async function signInMethodsOf(db: Db, page: ToolCallDecision[], known: Map<string, string[]>): Promise<void> {
  const emails = [...new Set(page.map((decision) => decision.reviewer))].filter((email) => !known.has(email));
  if (emails.length === 0) return;
  const users = await db.user.findMany({
    where: { email: { in: emails } },
    select: { email: true, accounts: { select: { providerId: true } } },
  });
  for (const email of emails) known.set(email, []);
  for (const user of users) {
    known.set(
      user.email,
      [...new Set(user.accounts.map((account) => (account.providerId === "credential" ? "password" : account.providerId)))].sort(),
    );
  }
}

/** Each version of each rule that was in force at some moment of the period (its definition as it was). */
export async function rulesInForce(db: Db, period: Period) {
  const versions = await db.ruleVersion.findMany({
    where: { changedAt: { lt: period.until } },
    orderBy: [{ ruleId: "asc" }, { version: "asc" }],
  });
  return versions.flatMap((version, i) => {
    const next = versions[i + 1]?.ruleId === version.ruleId ? versions[i + 1] : undefined;
    const inForce = version.change !== "deleted" && (!next || next.changedAt > period.from);
    if (!inForce) return [];
    return [
      {
        ruleId: version.ruleId,
        version: version.version,
        change: version.change,
        changedBy: version.changedBy,
        changedAt: version.changedAt.toISOString(),
        until: next?.changedAt.toISOString() ?? null,
        rule: JSON.parse(version.rule) as unknown,
      },
    ];
  });
}

/**
 * The expiry rules (lib/settings/expiry-rules.ts: how long a call may wait before it is expired) as
 * they are when the bundle is made. Unlike rules they keep no versions, so the bundle says so: each
 * rule's `updatedAt` says when it last changed (one changed after the period began may have read
 * otherwise during it), a rule deleted since is not listed, and each expiry decision's `reason`
 * names the wait it was made under.
 */
export async function expiryRulesAtExport(db: Db, now: Date = new Date()) {
  const rules = await db.expiryRule.findMany({ orderBy: [{ agentId: "asc" }, { toolName: "asc" }] });
  return {
    asOf: now.toISOString(),
    versioned: false,
    rules: rules.map((rule) => ({
      agentId: rule.agentId,
      toolName: rule.toolName,
      afterMinutes: rule.afterMinutes,
      mode: rule.mode,
      warnMinutes: rule.warnMinutes,
      updatedBy: rule.updatedBy,
      updatedAt: rule.updatedAt.toISOString(),
    })),
  };
}

/** The bundle as JSON text in pieces; the caller signs every piece and appends the signature member. */
export async function* evidenceJson(db: Db, period: Period, chain: ChainVerification): AsyncGenerator<string> {
  const generatedAt = new Date();
  const head = {
    kind: "agent-approvals-oversight-evidence",
    version: 1,
    generatedAt: generatedAt.toISOString(),
    period: { from: period.from.toISOString(), until: period.until.toISOString() },
    chain,
    rulesInForce: await rulesInForce(db, period),
    expiryRules: await expiryRulesAtExport(db, generatedAt),
  };
  yield `${JSON.stringify(head).slice(0, -1)},"decisions":[`;
  let count = 0;
  for await (const rows of evidenceRows(db, period)) {
    yield rows.map((row) => `${count++ === 0 ? "" : ","}${JSON.stringify(row)}`).join("");
  }
  yield `],"decisionCount":${count},"accessChanges":[`;
  let changes = 0;
  for await (const rows of accessChangeRows(db, period)) {
    yield rows.map((row) => `${changes++ === 0 ? "" : ","}${JSON.stringify(row)}`).join("");
  }
  yield `],"accessChangeCount":${changes}`;
}

export const EVIDENCE_CSV_COLUMNS = Object.keys(evidenceRow(placeholderDecision(), undefined, undefined, [])) as Array<keyof EvidenceRow>;

export async function* evidenceCsv(db: Db, period: Period): AsyncGenerator<string> {
  yield `${EVIDENCE_CSV_COLUMNS.join(",")}\r\n`;
  for await (const rows of evidenceRows(db, period)) {
    yield rows.map((row) => `${EVIDENCE_CSV_COLUMNS.map((column) => csvField(row[column])).join(",")}\r\n`).join("");
  }
}

export async function verifiedChain(db: Db): Promise<ChainVerification> {
  return verifyAuditChain(db);
}

function placeholderDecision(): ToolCallDecision {
  const at = new Date(0);
  return {
    id: "",
    runId: "",
    toolCallId: "",
    action: "",
    state: "",
    reviewer: "",
    agentId: "",
    decidedAt: at,
    updatedAt: at,
    leaseUntil: at,
  } as ToolCallDecision;
}
