// Where this repository keeps its Prisma schemas and migrations. Free of imports from the store
// package: generating the Prisma clients (which the package is built from) needs these paths first.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (where package.json and prisma.config.ts live). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The snapshot store package's folder in this repository (packages/mastra-store). */
export const STORE_PACKAGE_ROOT = path.join(PROJECT_ROOT, "packages", "mastra-store");

type Provider = "sqlite" | "postgres";

/**
 * The console's Prisma schema of one provider (a folder: its own models in schema.prisma, the
 * store's in store.prisma, linked from the package) and its migrations folder.
 */
export function prismaPaths(provider: Provider): { schemaFolder: string; schemaFiles: string[]; migrations: string } {
  const dir = path.join(PROJECT_ROOT, "prisma", provider);
  return {
    schemaFolder: dir,
    schemaFiles: [path.join(dir, "schema.prisma"), path.join(dir, "store.prisma")],
    migrations: path.join(dir, "migrations"),
  };
}

/** The store package's Prisma schema of one provider (generator and datasource, then its models) and migrations. */
export function storePrismaPaths(provider: Provider): { schemaFolder: string; schemaFiles: string[]; migrations: string } {
  const dir = path.join(STORE_PACKAGE_ROOT, "prisma", provider);
  return {
    schemaFolder: dir,
    schemaFiles: [path.join(dir, "schema.prisma"), path.join(STORE_PACKAGE_ROOT, "prisma", "store.prisma")],
    migrations: path.join(STORE_PACKAGE_ROOT, "migrations", provider),
  };
}

/**
 * The store package's tables: in the console's schema (the console reads them through its client),
 * created and migrated by the package (packages/mastra-store/migrations), so the console's own
 * migrations leave them alone. Read from the package's models, plus its migration history.
 */
function storeTableNames(): string[] {
  const models = readFileSync(path.join(STORE_PACKAGE_ROOT, "prisma", "store.prisma"), "utf8");
  return [...[...models.matchAll(/@@map\("(\w+)"\)/g)].map((match) => match[1]!), "mastra_store_migrations"];
}

/** The store's tables as Prisma's `externalTables` names them (PostgreSQL: qualified by schema). */
export function storeTables(provider: Provider): string[] {
  const tables = storeTableNames();
  return provider === "postgres" ? tables.map((table) => `public.${table}`) : tables;
}
