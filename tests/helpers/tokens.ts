/** Requests of the API-token tests (tests/auth/api-tokens*.test.ts), and what a refused one may leave in the database. */
import { expect } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import type { ConsoleServer } from "./console-server.ts";

export type Answer = { status: number; body: { ok: boolean; data?: any; error?: { code: string; message: string } } };

export function tokenRequests(databaseUrl: () => string) {
  async function call(
    server: ConsoleServer,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<Answer> {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  /** Rows of the audit log and the decisions table, to see what a refused request left. */
  async function stored() {
    const db = await getDb(databaseUrl());
    return {
      audit: await db.auditEvent.findMany({ orderBy: { id: "asc" } }),
      decisions: await db.toolCallDecision.count(),
      tokens: await db.apiToken.findMany({ orderBy: { id: "asc" }, select: { id: true, revokedAt: true, name: true, scopes: true } }),
      accounts: await db.serviceAccount.count(),
    };
  }

  /** Runs `request` and returns what it answered and the audit rows it added; nothing else may change. */
  async function refusedWithOnly(request: () => Promise<Answer>) {
    const before = await stored();
    const answer = await request();
    const after = await stored();
    expect(after.decisions).toBe(before.decisions);
    expect(after.tokens).toEqual(before.tokens);
    expect(after.accounts).toBe(before.accounts);
    const added = after.audit.slice(before.audit.length);
    for (const row of added) expect(row.outcome).toBe("refused");
    return { answer, added };
  }

  return { call, refusedWithOnly };
}
