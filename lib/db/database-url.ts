// How a DATABASE_URL maps onto this project's two database flavours. Shared by the migration code,
// prisma.config.ts and anything else that opens the database, so they all agree on which file or
// server a URL means. The rule itself lives in the store package (sqliteFilePath): a relative
// `file:` path resolves against the working directory, in the console, the package, its CLI and a
// team's own Mastra server alike. npm scripts run in the project root, so the default below is
// data/console.db of the checkout for `npm run demo`, `npm start` and the tests.
export { absoluteDatabaseUrl, databaseProvider, redactUrl, sqliteFilePath, type DatabaseProvider } from "@agent-approvals/mastra-store";
export { PROJECT_ROOT, STORE_PACKAGE_ROOT, prismaPaths } from "./prisma-paths.ts";
// Defined beside the start-up check, which server.mjs (plain JavaScript) runs on the same default.
export { DEFAULT_DATABASE_URL } from "./migration-status.mjs";
