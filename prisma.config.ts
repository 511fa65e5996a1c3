// Prisma CLI configuration, for machines where the native schema engine is available
// (`prisma migrate deploy`, `prisma studio`, …). Where it is not, use `npm run db:deploy` and
// `npm run db:migrate`, which read the same folders (lib/db/migrate.ts).
// DATABASE_URL picks the schema and migrations: file:… → prisma/sqlite, postgres(ql)://… → prisma/postgres.
// The store package's tables are external here: `npx mastra-store migrate` manages them.
import { defineConfig } from "prisma/config";
import { prismaPaths, storeTables } from "./lib/db/prisma-paths.ts";
// Its source, not the built package: `prisma generate` runs before the package is built.
import { databaseProvider, sqliteFilePath } from "./packages/mastra-store/src/database-url.ts";

const databaseUrl = process.env.DATABASE_URL || "file:./data/console.db";
const provider = databaseProvider(databaseUrl);
const { schemaFolder, migrations } = prismaPaths(provider);

export default defineConfig({
  schema: schemaFolder,
  migrations: { path: migrations },
  experimental: { externalTables: true },
  tables: { external: storeTables(provider) },
  // Made absolute by the same rule as everywhere else (the working directory), whatever Prisma's CLI would do with a relative one.
  datasource: { url: provider === "sqlite" ? `file:${sqliteFilePath(databaseUrl)}` : databaseUrl },
});
