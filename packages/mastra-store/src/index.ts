/**
 * A Prisma-managed workflow snapshot store for Mastra, on SQLite or PostgreSQL, that keeps what a
 * reviewer needs to find waiting runs (status, owning agent, thread, resource, pending tool calls)
 * in indexed columns, with exact per-agent and per-thread summaries. Give Mastra's `workflows`
 * domain to `PrismaWorkflowsStorage` and keep your store for the rest (README.md). The migrator is
 * `@agent-approvals/mastra-store/migrate` (and the `mastra-store migrate` CLI): deploy-time code that
 * reads the package's own migration files, kept out of what an app bundles.
 */
export { PrismaWorkflowsStorage, type PrismaWorkflowsStorageOptions } from "./storage.ts";
export {
  connectDatabase,
  compilesStatementsOnce,
  isPostgresClient,
  connectStoreDatabase,
  executeStatement,
  queryStatement,
  statementTransaction,
  type StatementTransaction,
  refreshPlannerStatistics,
  type ClientClasses,
  type StoreDb,
} from "./database.ts";
export { absoluteDatabaseUrl, databaseProvider, redactUrl, sqliteFilePath, type DatabaseProvider } from "./database-url.ts";
export { serializedSqliteAdapter } from "./sqlite-adapter.ts";
export { loadExecutionSnapshot } from "./execution-snapshot.ts";
export * from "./snapshot-reader.ts";
export {
  readConversation,
  readStoredMessage,
  runStartedAt,
  requestExcerptOf,
  cut as cutExcerpt,
  REQUEST_EXCERPT_MAX_LENGTH,
  type ConversationMessage,
  type ConversationPart,
  type RunConversation,
} from "./conversation.ts";
