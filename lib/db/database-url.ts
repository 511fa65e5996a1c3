// How a DATABASE_URL maps onto this project's two database flavours. Shared by the migration code,
// prisma.config.ts and anything else that opens the database, so they all agree on which file or
// server a URL means.
import path from "node:path";
import { fileURLToPath } from "node:url";

export type DatabaseProvider = "sqlite" | "postgres";

/** The repository root (where package.json and prisma.config.ts live). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export const DEFAULT_DATABASE_URL = "file:./data/console.db";

export function databaseProvider(databaseUrl: string): DatabaseProvider {
  if (databaseUrl.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return "postgres";
  throw new Error(`Unsupported DATABASE_URL "${redactUrl(databaseUrl)}": expected file:… (SQLite) or postgres(ql)://… (PostgreSQL)`);
}

/**
 * The absolute path of the SQLite file a `file:` URL names. Relative paths resolve against the
 * project root, not the working directory, so scripts, tests and the app find the same file
 * wherever they are started from. `file::memory:` stays `:memory:`. Query parameters are ignored.
 */
export function sqliteFilePath(databaseUrl: string): string {
  if (!databaseUrl.startsWith("file:")) throw new Error(`Not a SQLite URL: ${databaseUrl}`);
  const withoutScheme = databaseUrl.slice("file:".length).replace(/[?#].*$/, "");
  // `file:///abs/path` and `file:/abs/path` are both absolute; `file:./x` and `file:x` are relative.
  const filePath = withoutScheme.startsWith("//") ? withoutScheme.slice(2) : withoutScheme;
  if (filePath === "") throw new Error(`SQLite URL has no file path: ${databaseUrl}`);
  if (filePath === ":memory:") return filePath;
  return path.resolve(PROJECT_ROOT, filePath);
}

/** The schema and migrations folder of one provider. */
export function prismaPaths(provider: DatabaseProvider): { schema: string; migrations: string } {
  const dir = path.join(PROJECT_ROOT, "prisma", provider);
  return { schema: path.join(dir, "schema.prisma"), migrations: path.join(dir, "migrations") };
}

/** The URL with its password masked, for error messages and logs. */
export function redactUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (!url.password) return databaseUrl;
    url.password = "***";
    return url.toString();
  } catch {
    return databaseUrl;
  }
}
