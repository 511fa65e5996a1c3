/**
 * The floor under any SQLite listing: the same page + COUNT + tool-call parse as our listing, sent
 * as prepared statements straight to better-sqlite3 (no ORM, no validation), on the same indexes.
 * The benchmark reports it next to ours so that a ratio against Mastra can be read against what a
 * single indexed query costs on this machine. Not used by the console.
 */
import Database from "better-sqlite3";
import { sqliteDate } from "./stores.ts";

export interface BareOptions {
  agentId?: string;
  threadId?: string;
  resourceId?: string;
  fromDate?: Date;
  toDate?: Date;
  perPage: number;
  page: number;
}

export function bareSqliteListing(file: string) {
  const db = new Database(file, { readonly: true });
  const statements = new Map<string, { page: Database.Statement; count: Database.Statement }>();
  return {
    list(options: BareOptions): { total: number; runs: number } {
      // Steered as our listing steers SQLite (list-suspended-runs.ts): with a thread or resource, the
      // agent only filters what that index finds. The floor is the best plan, not the planner's guess.
      const agent = options.threadId || options.resourceId ? "+agent_id = @agentId" : "agent_id = @agentId";
      const conditions = ["status = 'suspended'", options.agentId ? agent : "agent_id IS NOT NULL"];
      if (options.threadId) conditions.push("thread_id = @threadId");
      if (options.resourceId) conditions.push("resource_id = @resourceId");
      if (options.fromDate) conditions.push("created_at >= @fromDate");
      if (options.toDate) conditions.push("created_at <= @toDate");
      const where = conditions.join(" AND ");
      let prepared = statements.get(where);
      if (!prepared) {
        prepared = {
          page: db.prepare(
            `SELECT run_id, agent_id, thread_id, resource_id, updated_at, tool_calls FROM workflow_snapshots WHERE ${where} ORDER BY created_at DESC, run_id DESC LIMIT @limit OFFSET @offset`,
          ),
          count: db.prepare(`SELECT COUNT(*) AS total FROM workflow_snapshots WHERE ${where}`),
        };
        statements.set(where, prepared);
      }
      const params = {
        ...(options.agentId ? { agentId: options.agentId } : {}),
        ...(options.threadId ? { threadId: options.threadId } : {}),
        ...(options.resourceId ? { resourceId: options.resourceId } : {}),
        ...(options.fromDate ? { fromDate: sqliteDate(options.fromDate) } : {}),
        ...(options.toDate ? { toDate: sqliteDate(options.toDate) } : {}),
      };
      const rows = prepared.page.all({ ...params, limit: options.perPage, offset: options.page * options.perPage }) as Array<{
        tool_calls: string | null;
      }>;
      for (const row of rows) if (row.tool_calls) JSON.parse(row.tool_calls);
      const { total } = prepared.count.get(params) as { total: number };
      return { total, runs: rows.length };
    },
    close: () => db.close(),
  };
}
