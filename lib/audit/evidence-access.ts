/**
 * The evidence bundle's access changes (evidence.ts): who gave or took which access, when, and how
 * they were signed in: every API token and service account created, token revoked, service account
 * disabled or enabled, user created and role changed in the period, from the audit log's own rows,
 * oldest first, each with its place and hash in the chain. Read in keyset pages: memory stays flat.
 */
import type { Db } from "../db/client.ts";
import { ACCESS_CHANGES, accessSubjectOf } from "./access-changes.ts";
import type { Period } from "./evidence.ts";

const PAGE = 500;

type AccessRow = {
  id: number;
  at: Date;
  reviewer: string;
  action: string;
  args: string | null;
  message: string | null;
  authMethod: string | null;
  tokenId: string | null;
  tokenName: string | null;
  chainSeq: number | null;
  hash: string | null;
};

/** One access change as evidence. */
export function accessChangeRow(row: AccessRow) {
  return {
    at: row.at.toISOString(),
    change: row.action,
    changedBy: row.reviewer,
    // How the request that made the change was authenticated (password, sso; token for a revoke or a
    // disable made with one; empty for the command line), and with which token.
    authMethod: row.authMethod ?? "",
    tokenId: row.tokenId ?? "",
    tokenName: row.tokenName ?? "",
    // What was given or taken: a token (id, name, prefix, scopes, expiry, owner), a service account or a user with its role.
    subject: accessSubjectOf(row.args),
    message: row.message ?? "",
    auditSeq: row.chainSeq ?? "",
    auditHash: row.hash ?? "",
  };
}

export type AccessChangeRow = ReturnType<typeof accessChangeRow>;

/** The period's access changes, a page at a time, in the chain's order. */
export async function* accessChangeRows(db: Db, period: Period): AsyncGenerator<AccessChangeRow[]> {
  let after = 0;
  for (;;) {
    const page: AccessRow[] = await db.auditEvent.findMany({
      where: { action: { in: [...ACCESS_CHANGES] }, runId: "", at: { gte: period.from, lt: period.until }, id: { gt: after } },
      orderBy: { id: "asc" },
      take: PAGE,
      select: {
        id: true,
        at: true,
        reviewer: true,
        action: true,
        args: true,
        message: true,
        authMethod: true,
        tokenId: true,
        tokenName: true,
        chainSeq: true,
        hash: true,
      },
    });
    if (page.length === 0) return;
    yield page.map(accessChangeRow);
    after = page.at(-1)!.id;
  }
}
