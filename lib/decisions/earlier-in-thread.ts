/**
 * "Earlier in this thread": what the run's agent remembers of its thread from before the run started,
 * as its memory keeps it (Mastra's memory store), newest page first, a page at a time. Only an agent
 * with memory remembers anything: Mastra keeps a thread's messages per thread, not per agent, so an
 * agent without memory on a thread that another agent keeps (the shipping agent's ticket, then a
 * refund on it) was sent none of them, and showing them would put words in its mouth. An agent with
 * memory is sent the thread's messages whoever wrote them, so all of them are shown. Keyset-paged
 * on the message time through the store's (thread, createdAt) index (`idx_messages_thread_created_at`
 * on SQLite, `mastra_messages_thread_id_createdat_idx` on PostgreSQL): every page is one index range,
 * however long the thread. Embedded mode reads the console's Mastra storage; remote mode
 * (MASTRA_SERVER_URL) asks the team's Mastra server (GET /api/memory/threads/:threadId/messages), which
 * runs the same storage query on its own store. Read-only.
 */
import { loadExecutionSnapshot, readStoredMessage, runStartedAt } from "@agent-approvals/mastra-store";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getMastra } from "../mastra/index.ts";
import { resolveOwner } from "./owners.ts";
import { remoteClient, remoteServer, type RemoteServer } from "../mastra/remote.ts";
import { boundedPart } from "../runs/conversation.ts";
import type { ConversationMessageDto, EarlierInThreadPage } from "../runs/conversation-dto.ts";

/** Messages per page. */
export const EARLIER_PAGE_SIZE = 50;
const REMOTE_TIMEOUT_MS = 10_000;

/** One page of stored messages, newest first, and how many match in all (this page included). */
interface StoredPage {
  messages: unknown[];
  total: number;
}

/** The thread's messages created strictly before `end` (ISO time), newest first. */
type ThreadReader = (threadId: string, end: string) => Promise<StoredPage>;

/**
 * The page of run `runId`'s thread before `before` (default: the run's start). Throws run_not_found
 * when the store holds no such agent run.
 */
export async function getEarlierInThread(
  runId: string,
  { before }: { before?: string } = {},
  databaseUrl: string = databaseUrlFromEnv(),
): Promise<EarlierInThreadPage> {
  const db = await getDb(databaseUrl);
  const row = await db.workflowSnapshot.findFirst({
    where: { runId, agentId: { not: null } },
    orderBy: { createdAt: "asc" },
    select: { workflowName: true, snapshot: true, threadId: true, createdAt: true, agentId: true },
  });
  if (!row) throw new AppError("run_not_found", `No agent run "${runId}" is waiting in the store: it finished, or never existed.`);
  const server = remoteServer();
  const empty: EarlierInThreadPage = { runId, threadId: row.threadId, agentRemembers: false, messages: [], remaining: 0, before: null };
  if (!row.threadId) return empty;
  if (!(await keepsMemory(row.agentId!, server, databaseUrl))) return empty;
  let started: string | null = null;
  try {
    started = runStartedAt(row.workflowName, JSON.parse(row.snapshot), await loadExecutionSnapshot(db, row.workflowName, runId));
  } catch {
    started = null; // a layout the store does not read: the row's own time bounds the run
  }
  const start = started ?? row.createdAt.toISOString();
  const end = before !== undefined && before < start ? before : start;
  const read: ThreadReader = server ? remoteThreadReader(server) : await embeddedThreadReader(databaseUrl);
  const page = await read(row.threadId, end);
  const oldest = page.messages.at(-1) as { createdAt?: unknown } | undefined;
  const remaining = Math.max(0, page.total - page.messages.length);
  const messages: ConversationMessageDto[] = [];
  for (const stored of [...page.messages].reverse()) {
    const message = readStoredMessage(stored);
    if (message) messages.push({ ...message, parts: message.parts.map(boundedPart) });
  }
  return { ...empty, agentRemembers: true, messages, remaining, before: remaining > 0 ? isoTime(oldest?.createdAt) : null };
}

/**
 * Whether the agent that owns a run keeps memory (is sent its thread's earlier messages): the agent
 * this console serves says so itself; the team's Mastra server answers for its own (GET
 * /api/memory/status?agentId=…, false for an agent without memory). A run this console cannot
 * resolve an agent for (a workflow's, an agent no longer served) remembers nothing we could show.
 */
async function keepsMemory(ownerKey: string, server: RemoteServer | undefined, databaseUrl: string): Promise<boolean> {
  if (server) {
    try {
      const status = (await remoteClient(server, AbortSignal.timeout(REMOTE_TIMEOUT_MS)).getMemoryStatus(ownerKey)) as { result?: unknown };
      return status.result === true;
    } catch (error) {
      throw new AppError(
        "agent_failed",
        `The Mastra server did not say whether agent "${ownerKey}" keeps memory: ${(error as Error).message}`,
      );
    }
  }
  const owner = await resolveOwner(ownerKey, databaseUrl).catch(() => null);
  return owner?.kind === "agent" && owner.agent.hasOwnMemory();
}

/** The console's own Mastra storage (its memory domain: Mastra's store beside ours, lib/store). */
async function embeddedThreadReader(databaseUrl: string): Promise<ThreadReader> {
  const memory = await (await getMastra(databaseUrl)).getStorage()?.getStore("memory");
  if (!memory) return async () => ({ messages: [], total: 0 });
  return async (threadId, end) => {
    const { messages, total } = await memory.listMessages({ threadId, ...pageQuery(end) });
    return { messages, total };
  };
}

/** The team's Mastra server: the same storage query, on its store. A thread it does not know has no messages. */
function remoteThreadReader(server: RemoteServer): ThreadReader {
  return async (threadId, end) => {
    try {
      const listed = (await remoteClient(server, AbortSignal.timeout(REMOTE_TIMEOUT_MS))
        .getMemoryThread({ threadId })
        .listMessages(pageQuery(end) as never)) as { messages?: unknown[]; total?: number };
      const messages = Array.isArray(listed.messages) ? listed.messages : [];
      return { messages, total: typeof listed.total === "number" ? listed.total : messages.length };
    } catch (error) {
      if (/\b404\b/.test((error as Error).message)) return { messages: [], total: 0 };
      throw new AppError("agent_failed", `The Mastra server did not answer with the thread's messages: ${(error as Error).message}`);
    }
  };
}

function pageQuery(end: string) {
  return {
    filter: { dateRange: { end: new Date(end), endExclusive: true } },
    orderBy: { field: "createdAt" as const, direction: "DESC" as const },
    perPage: EARLIER_PAGE_SIZE,
    page: 0,
  };
}

function isoTime(value: unknown): string | null {
  if (!(value instanceof Date) && typeof value !== "string" && typeof value !== "number") return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}
