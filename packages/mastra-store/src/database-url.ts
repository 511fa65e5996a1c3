/** Which database a URL names: `file:` URLs are SQLite files, `postgres(ql)://` URLs PostgreSQL. */
import path from "node:path";

export type DatabaseProvider = "sqlite" | "postgres";

/** The variable that names the store's database, in the README's config and for the CLI (never DATABASE_URL). */
export const DATABASE_URL_VARIABLE = "APPROVALS_DATABASE_URL";

export function databaseProvider(databaseUrl: string): DatabaseProvider {
  // The README's config with APPROVALS_DATABASE_URL unset gives PrismaWorkflowsStorage undefined (set
  // to nothing, ""): its constructor stops here, naming the variable, as the CLI does.
  if (typeof databaseUrl !== "string" || databaseUrl === "") {
    throw new Error(
      `The approvals store has no database (its databaseUrl is ${databaseUrl === "" ? "empty" : String(databaseUrl)}): ` +
        `set ${DATABASE_URL_VARIABLE}, which the README's config passes it and \`npx mastra-store migrate\` reads, ` +
        `to file:<path> (SQLite) or postgres://user:password@host:5432/db (PostgreSQL).`,
    );
  }
  if (databaseUrl.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return "postgres";
  throw new Error(`Unsupported database URL "${redactUrl(databaseUrl)}": expected file:… (SQLite) or postgres(ql)://… (PostgreSQL)`);
}

/**
 * The absolute path of the SQLite file a `file:` URL names. `file::memory:` stays `:memory:`; query
 * parameters are ignored. A relative path (`file:./data/app.db`) resolves against the working
 * directory of the process, as SQLite, LibSQLStore and Prisma's adapters do: the one rule the
 * package, its CLI and the approvals console all follow, so one URL means one file wherever it is
 * read from the same folder. Processes started in different folders need an absolute path
 * (`file:/srv/approvals/console.db`); every program prints the absolute path it opened.
 */
export function sqliteFilePath(databaseUrl: string): string {
  if (!databaseUrl.startsWith("file:")) throw new Error(`Not a SQLite URL: ${redactUrl(databaseUrl)}`);
  const withoutScheme = databaseUrl.slice("file:".length).replace(/[?#].*$/, "");
  // `file:///abs/path` and `file:/abs/path` are both absolute; `file:./x` and `file:x` are relative.
  const filePath = withoutScheme.startsWith("//") ? withoutScheme.slice(2) : withoutScheme;
  if (filePath === "") throw new Error(`SQLite URL has no file path: ${databaseUrl}`);
  if (filePath === ":memory:") return filePath;
  return path.resolve(filePath);
}

/** `databaseUrl` with a relative SQLite path made absolute (sqliteFilePath), for messages and for other processes. */
export function absoluteDatabaseUrl(databaseUrl: string): string {
  return databaseProvider(databaseUrl) === "sqlite" ? `file:${sqliteFilePath(databaseUrl)}` : databaseUrl;
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
