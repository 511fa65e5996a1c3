import { setTimeout as sleep } from "node:timers/promises";
import {
  WorkflowsStorage,
  createEmptyWorkflowSnapshot,
  matchesExpectedWorkflowStatus,
  mergeWorkflowStepResult,
  normalizePerPage,
  type StorageListWorkflowRunsInput,
  type UpdateWorkflowStateOptions,
  type WorkflowRun,
  type WorkflowRuns,
} from "@mastra/core/storage";
import type { StepResult, WorkflowRunState } from "@mastra/core/workflows";
import { sqltag as sql } from "@prisma/client/runtime/client";
import { clientProvider, connectStoreDatabase, executeStatement, type StoreDb } from "./database.ts";
import { absoluteDatabaseUrl, redactUrl } from "./database-url.ts";
import { missingMigrationsMessage, missingStoreMigrations } from "./migration-status.ts";
import { failpoint } from "./failpoint.ts";
import type { Prisma, WorkflowSnapshot } from "./generated/sqlite/client.ts";
import { readSnapshotWithPaths, setDelegatedRunsAside } from "./delegations.ts";
import { isAgentLoopWorkflow, type Delegation } from "./snapshot-reader.ts";
import { parseSnapshot, snapshotColumns, toWorkflowRun } from "./serialize.ts";

/** How often a read-modify-write is retried when another writer changed the row in between. */
const MAX_WRITE_ATTEMPTS = 25;

export type PrismaWorkflowsStorageOptions =
  /** The store's database: `file:…` (SQLite) or `postgres://…`. The package opens its own client. */
  | { databaseUrl: string }
  /** A client already open on it, generated from a schema that includes the store's models. */
  | { db: StoreDb };

/**
 * Mastra's workflow snapshot storage on the Prisma-managed `workflow_snapshots` table. Every write
 * re-reads the snapshot (snapshot-reader.ts) into indexed columns (status, owning agent, thread,
 * resource, pending tool calls), so listing filters and counts in SQL without parsing JSON. The
 * tables come from the package's migrations (`mastra-store migrate`), not from `init()`, which
 * refuses a database that lacks any of them.
 */
export class PrismaWorkflowsStorage extends WorkflowsStorage {
  readonly #connection: Promise<StoreDb>;
  /** For messages; absolute, so an operator sees which file a relative URL meant. */
  readonly #databaseUrl: string | undefined;
  #db!: StoreDb;

  constructor(options: PrismaWorkflowsStorageOptions) {
    super();
    this.#databaseUrl = "databaseUrl" in options ? absoluteDatabaseUrl(options.databaseUrl) : undefined;
    // Mastra's config is built synchronously; the client opens on first use.
    this.#connection = "db" in options ? Promise.resolve(options.db) : connectStoreDatabase(options.databaseUrl);
    this.#connection.then(
      (db) => (this.#db = db),
      () => undefined, // reported by init() and by every call
    );
  }

  /**
   * Refuses a database lacking any of the store's migrations, naming the command (a missing trigger
   * would leave summaries quietly wrong). Mastra calls it before the first storage call.
   */
  override async init(): Promise<void> {
    let db: StoreDb;
    try {
      db = await this.#ready();
      await db.$queryRawUnsafe("SELECT 1");
    } catch (error) {
      const where = this.#databaseUrl ? ` (${redactUrl(this.#databaseUrl)})` : "";
      throw new Error(`The approvals store's database${where} cannot be reached: ${(error as Error).message}`, { cause: error });
    }
    const missing = await missingStoreMigrations(db, await clientProvider(db));
    if (missing.length) throw new Error(missingMigrationsMessage(missing, this.#databaseUrl));
    // Departures are a queue for a reader such as the console, which deletes what it reads.
    await db.departedToolCall.deleteMany({ where: { departedAt: { lt: new Date(Date.now() - DEPARTURES_KEPT_MS) } } });
    // Calls that started waiting are the same kind of queue (the console's call.waiting events).
    await db.waitingToolCall.deleteMany({ where: { waitingSince: { lt: new Date(Date.now() - DEPARTURES_KEPT_MS) } } });
  }

  /** The client, without a promise on the hot path once it is open. */
  #ready(): StoreDb | Promise<StoreDb> {
    return this.#db ?? this.#connection;
  }

  supportsConcurrentUpdates(): boolean {
    return true;
  }

  async dangerouslyClearAll(): Promise<void> {
    const db = await this.#ready();
    await db.workflowSnapshot.deleteMany();
  }

  async persistWorkflowSnapshot({
    workflowName,
    runId,
    resourceId,
    snapshot,
    createdAt,
    updatedAt,
  }: {
    workflowName: string;
    runId: string;
    resourceId?: string;
    snapshot: WorkflowRunState;
    createdAt?: Date;
    updatedAt?: Date;
  }): Promise<void> {
    const db = await this.#ready();
    const now = new Date();
    const columns = await this.#columns(workflowName, snapshot);
    const knownResourceId = resourceId ?? columns.resourceId ?? null;
    // One statement, the same on SQLite and PostgreSQL (Prisma's upsert on a compound key reads
    // the row first, then writes it: twice the round trips on the path every agent step takes).
    // Like Mastra's own stores: the run keeps its creation time and a resource once known.
    await executeStatement(
      db,
      sql`
      INSERT INTO "workflow_snapshots" ("workflow_name", "run_id", "resource_id", "agent_id", "thread_id", "status",
        "tool_call_count", "version", "created_at", "updated_at", "tool_calls", "request_excerpt", "snapshot")
      VALUES (${workflowName}, ${runId}, ${knownResourceId}, ${columns.agentId}, ${columns.threadId}, ${columns.status},
        ${columns.toolCallCount}, 0, ${createdAt ?? now}, ${updatedAt ?? now}, ${columns.toolCalls}, ${columns.requestExcerpt}, ${columns.snapshot})
      ON CONFLICT ("workflow_name", "run_id") DO UPDATE SET
        "resource_id" = COALESCE(excluded."resource_id", "workflow_snapshots"."resource_id"),
        "agent_id" = excluded."agent_id", "thread_id" = excluded."thread_id", "status" = excluded."status",
        "tool_call_count" = excluded."tool_call_count", "version" = "workflow_snapshots"."version" + 1, "updated_at" = excluded."updated_at",
        "tool_calls" = excluded."tool_calls", "request_excerpt" = excluded."request_excerpt", "snapshot" = excluded."snapshot"`,
    );
    if (columns.toolCallCount > 0) failpoint("after-waiting-snapshot-written");
    await this.#setDelegatedRunsAside(columns.delegations);
  }

  async loadWorkflowSnapshot({ workflowName, runId }: { workflowName: string; runId: string }) {
    const db = await this.#ready();
    const row = await db.workflowSnapshot.findUnique({
      where: { workflowName_runId: { workflowName, runId } },
      select: { snapshot: true },
    });
    return row ? parseSnapshot(row.snapshot) : null;
  }

  async updateWorkflowResults({
    workflowName,
    runId,
    stepId,
    result,
    requestContext,
  }: {
    workflowName: string;
    runId: string;
    stepId: string;
    result: StepResult<any, any, any, any>;
    requestContext: Record<string, any>;
  }): Promise<Record<string, StepResult<any, any, any, any>>> {
    return this.#retryOnConflict(async () => {
      const row = await this.#findRow(workflowName, runId);
      const snapshot = row ? parseSnapshot(row.snapshot) : createEmptyWorkflowSnapshot(runId);
      mergeWorkflowStepResult({ snapshot, stepId, result, requestContext });
      const now = new Date();
      if (!row) {
        const { delegations: _, ...columns } = await this.#columns(workflowName, snapshot);
        const created = await this.#createIfAbsent({ workflowName, runId, ...columns, createdAt: now, updatedAt: now });
        return created ? { value: snapshot.context } : CONFLICT;
      }
      const written = await this.#writeIfUnchanged(row, snapshot, { updatedAt: now });
      return written ? { value: snapshot.context } : CONFLICT;
    });
  }

  async updateWorkflowState({
    workflowName,
    runId,
    opts,
  }: {
    workflowName: string;
    runId: string;
    opts: UpdateWorkflowStateOptions;
  }): Promise<WorkflowRunState | undefined> {
    return this.#retryOnConflict(async () => {
      const row = await this.#findRow(workflowName, runId);
      if (!row) return { value: undefined };
      const snapshot = parseSnapshot(row.snapshot);
      if (!snapshot?.context) throw new Error(`Snapshot not found for runId ${runId}`);
      const { expectedStatus, ...state } = opts;
      if (!matchesExpectedWorkflowStatus(snapshot.status, expectedStatus)) return { value: undefined };
      const updated = { ...snapshot, ...state } as WorkflowRunState;
      return (await this.#writeIfUnchanged(row, updated, {})) ? { value: updated } : CONFLICT;
    });
  }

  async listWorkflowRuns({
    workflowName,
    fromDate,
    toDate,
    perPage,
    page,
    resourceId,
    threadId,
    status,
  }: StorageListWorkflowRunsInput = {}): Promise<WorkflowRuns> {
    const db = await this.#ready();
    if (page !== undefined && (!Number.isInteger(page) || page < 0)) {
      throw new Error("page must be a non-negative integer");
    }
    const where: Prisma.WorkflowSnapshotWhereInput = {
      workflowName,
      status,
      resourceId,
      // Our column holds Mastra's canonical thread extraction, so this filter is exact.
      threadId,
      createdAt: fromDate || toDate ? { gte: fromDate, lte: toDate } : undefined,
    };
    const paginate = perPage !== undefined && page !== undefined;
    const take = paginate ? normalizePerPage(perPage, Number.MAX_SAFE_INTEGER) : undefined;
    const [rows, total] = await Promise.all([
      db.workflowSnapshot.findMany({
        where,
        orderBy: [{ createdAt: "desc" }, { runId: "desc" }],
        skip: paginate && take !== undefined ? page * take : undefined,
        take: take !== undefined && take < Number.MAX_SAFE_INTEGER ? take : undefined,
      }),
      db.workflowSnapshot.count({ where }),
    ]);
    return { runs: rows.map(toWorkflowRun), total };
  }

  async getWorkflowRunById({ runId, workflowName }: { runId: string; workflowName?: string }): Promise<WorkflowRun | null> {
    const db = await this.#ready();
    const row = await db.workflowSnapshot.findFirst({
      where: { runId, workflowName },
      orderBy: { createdAt: "desc" },
    });
    return row ? toWorkflowRun(row) : null;
  }

  async deleteWorkflowRunById({ runId, workflowName }: { runId: string; workflowName: string }): Promise<void> {
    const db = await this.#ready();
    await db.workflowSnapshot.deleteMany({ where: { workflowName, runId } });
    if (isAgentLoopWorkflow(workflowName)) failpoint("after-outer-snapshot-deleted");
  }

  async #findRow(workflowName: string, runId: string) {
    const db = await this.#ready();
    return db.workflowSnapshot.findUnique({ where: { workflowName_runId: { workflowName, runId } } });
  }

  /** Writes `snapshot` over `row` only if nobody wrote the row since it was read. */
  async #writeIfUnchanged(
    row: WorkflowSnapshot,
    snapshot: WorkflowRunState,
    extra: Pick<Prisma.WorkflowSnapshotUpdateManyMutationInput, "updatedAt">,
  ): Promise<boolean> {
    const db = await this.#ready();
    const { delegations, ...columns } = await this.#columns(row.workflowName, snapshot, row.resourceId);
    const { count } = await db.workflowSnapshot.updateMany({
      where: { workflowName: row.workflowName, runId: row.runId, version: row.version },
      data: { ...columns, ...extra, version: row.version + 1 },
    });
    if (count === 1) await this.#setDelegatedRunsAside(delegations);
    return count === 1;
  }

  /** The stored columns of a snapshot, delegated calls with their path (delegations.ts). */
  async #columns(workflowName: string, snapshot: WorkflowRunState, storedResourceId?: string | null) {
    const db = await this.#ready();
    const summary = await readSnapshotWithPaths(db, workflowName, snapshot);
    return { ...snapshotColumns(summary, snapshot, storedResourceId), delegations: summary.delegations };
  }

  async #setDelegatedRunsAside(delegations: Delegation[]): Promise<void> {
    const db = await this.#ready();
    await setDelegatedRunsAside(db, delegations);
  }

  async #createIfAbsent(data: Prisma.WorkflowSnapshotCreateInput): Promise<boolean> {
    const db = await this.#ready();
    try {
      await db.workflowSnapshot.create({ data });
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === "P2002") return false;
      throw error;
    }
  }

  async #retryOnConflict<T>(attempt: () => Promise<{ value: T } | typeof CONFLICT>): Promise<T> {
    for (let tries = 1; ; tries++) {
      const outcome = await attempt();
      if (outcome !== CONFLICT) return outcome.value;
      if (tries >= MAX_WRITE_ATTEMPTS) {
        throw new Error(`Workflow snapshot kept changing under a concurrent update (${tries} attempts)`);
      }
      await sleep(Math.random() * Math.min(50, 2 * tries));
    }
  }
}

const CONFLICT = Symbol("write conflict");

/** How long a departed call waits for a reader before it is dropped (README: "Departed calls"). */
const DEPARTURES_KEPT_MS = 30 * 24 * 60 * 60_000;
