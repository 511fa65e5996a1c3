// Prisma CLI configuration, for machines where the native schema engine is available
// (`prisma migrate deploy`, `prisma studio`, …). Where it is not, use `npm run db:deploy` and
// `npm run db:migrate`, which read the same folders (lib/db/migrate.ts).
// DATABASE_URL picks the schema and migrations: file:… → prisma/sqlite, postgres(ql)://… → prisma/postgres.
import { defineConfig } from "prisma/config";
import { DEFAULT_DATABASE_URL, databaseProvider, prismaPaths, sqliteFilePath } from "./lib/db/database-url.ts";

const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const provider = databaseProvider(databaseUrl);
const { schema, migrations } = prismaPaths(provider);

export default defineConfig({
  schema,
  migrations: { path: migrations },
  // A relative SQLite path means the same file here as in the app: relative to the project root.
  datasource: { url: provider === "sqlite" ? `file:${sqliteFilePath(databaseUrl)}` : databaseUrl },
});
