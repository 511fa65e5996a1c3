/**
 * The open-loop mix, shared by bench/open-loop.ts (load at fixed rates) and bench/live.ts
 * (propagation under that load): what reviewers read, the backlog's calls the mix approves, the
 * reviewers that sign in, and the warm-up every server gets before anything is timed.
 */
import http from "node:http";
import { disconnectDb, getDb } from "../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../tests/helpers/accounts.ts";
import type { ConsoleServer } from "../tests/helpers/console-server.ts";
import { send, type Request } from "./arrivals.ts";
import { resourceName } from "./backlog.ts";

export const REVIEWERS = 5;

export interface Approvable {
  runId: string;
  toolCallId: string;
  agentId: string;
}

export type ReadMix = Array<[weight: number, kind: string, path: () => string]>;

/** What reviewers read, by weight (decisions are sent besides, at DECISIONS_PER_SECOND); `onlyKind`: that kind alone. */
export function readMix(runIds: string[], onlyKind = ""): ReadMix {
  const anyOf = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
  const resource = () => resourceName(Math.floor(Math.random() * 50));
  const mix: ReadMix = [
    [15, "queue page", () => anyOf(["/", "/?sort=oldest", `/?resourceId=${resource()}`])],
    [15, "api queue", () => "/api/queue?perPage=20"],
    [10, "api queue resource", () => `/api/queue?resourceId=${resource()}`],
    [10, "api queue agent", () => `/api/queue?agentId=${anyOf(["refunds", "shipping", "outreach"])}&sort=oldest`],
    [10, "api queue risk", () => "/api/queue?risk=high,critical&sort=risk"],
    [40, "run page", () => `/runs/${encodeURIComponent(anyOf(runIds))}`],
  ];
  if (onlyKind && !mix.some(([, kind]) => kind === onlyKind)) throw new Error(`--only: no kind of request named "${onlyKind}"`);
  return mix.filter(([, kind]) => !onlyKind || kind === onlyKind);
}

/** One read of the mix at a time, drawn by weight. */
export function picker(mix: ReadMix): () => Request {
  const total = mix.reduce((sum, [weight]) => sum + weight, 0);
  return () => {
    let r = Math.random() * total;
    for (const [weight, kind, pathOf] of mix) {
      if ((r -= weight) < 0) return { kind, method: "GET", path: pathOf() };
    }
    throw new Error("unreachable");
  };
}

export const floor = (): Request => ({ kind: "floor", method: "GET", path: "/api/health/session" });

/** Signs in REVIEWERS reviewers: their session cookies, one per reader of the mix. */
export async function reviewerCookies(databaseUrl: string): Promise<string[]> {
  const reviewers = await Promise.all(
    Array.from({ length: REVIEWERS }, (_, i) => createTestAccount(databaseUrl, "reviewer", `Reviewer ${i + 1}`)),
  );
  return Promise.all(reviewers.map((reviewer) => sessionCookie(databaseUrl, reviewer)));
}

/**
 * The backlog's run pages the mix reads, and `approvals` calls it may approve. Closes this process's
 * connection after: the servers are the only ones using the database from here on.
 */
export async function mixInputs(databaseUrl: string, approvals: number): Promise<{ runIds: string[]; approvable: Approvable[] }> {
  const prisma = await getDb(databaseUrl);
  const runIds = (
    await prisma.$queryRawUnsafe<Array<{ run_id: string }>>(
      `SELECT run_id FROM workflow_snapshots WHERE status = 'suspended' AND agent_id IS NOT NULL ORDER BY run_id LIMIT 2000`,
    )
  ).map((row) => row.run_id);
  // Calls that wait for an approval (not for data): what the queue's Approve button decides. Not the
  // backlog's share of runs of agents no console serves any more (bench/backlog.ts: "legacy-…"),
  // which the console rightly refuses (502 unknown_agent).
  const approvable: Approvable[] = (
    await prisma.$queryRawUnsafe<Array<{ run_id: string; tool_call_id: string; agent_id: string }>>(
      `SELECT run_id, tool_call_id, agent_id FROM pending_tool_calls WHERE call LIKE '%"requiresApproval":true%' AND agent_id NOT LIKE 'legacy-%' ORDER BY run_id DESC LIMIT ${approvals}`,
    )
  ).map((row) => ({ runId: row.run_id, toolCallId: row.tool_call_id, agentId: row.agent_id }));
  await disconnectDb(databaseUrl);
  return { runIds, approvable };
}

/** The next approval of the mix (POST /api/decisions), or none once the calls ran out. */
export function decider(approvable: Approvable[]): () => Request | undefined {
  return () => {
    const call = approvable.pop();
    return (
      call && {
        kind: "decision",
        method: "POST",
        path: "/api/decisions",
        body: JSON.stringify({ action: "approve", runId: call.runId, toolCallId: call.toolCallId, agentId: call.agentId }),
      }
    );
  };
}

/** Every kind of the mix on every instance, the floor and one approval each, so the first timed requests load no modules. */
export async function warmUp(
  servers: ConsoleServer[],
  cookie: string,
  mix: ReadMix,
  decide: () => Request | undefined,
  warmUps: number,
  log: (line: string) => void,
): Promise<void> {
  const warm = new http.Agent({ keepAlive: true });
  try {
    for (const server of servers) {
      for (const [, kind, pathOf] of mix) {
        for (let i = 0; i < warmUps; i++) {
          const outcome = await send(server, warm, cookie, { kind, method: "GET", path: pathOf() }, performance.now());
          if (outcome.status !== "200") throw new Error(`warm-up ${kind}: ${outcome.status}\n${server.output()}`);
        }
      }
      const outcome = await send(server, warm, cookie, floor(), performance.now());
      if (outcome.status !== "200") throw new Error(`warm-up floor: ${outcome.status}\n${server.output()}`);
      const decided = decide();
      if (decided) {
        const first = await send(server, warm, cookie, decided, performance.now());
        log(`a first approval through POST /api/decisions: ${first.status} in ${first.latencyMs.toFixed(0)} ms`);
      }
    }
  } finally {
    warm.destroy();
  }
}
