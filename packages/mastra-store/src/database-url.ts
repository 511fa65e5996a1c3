/** Which database a URL names: `file:` URLs are SQLite files, `postgres(ql)://` URLs PostgreSQL. */
import path from "node:path";

export type DatabaseProvider = "sqlite" | "postgres";

export function databaseProvider(databaseUrl: string): DatabaseProvider {
  if (databaseUrl.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return "postgres";
  throw new Error(`Unsupported database URL "${redactUrl(databaseUrl)}": expected file:… (SQLite) or postgres(ql)://… (PostgreSQL)`);
}

/**
 * The path of the SQLite file a `file:` URL names, relative paths resolved against `base` (the
 * working directory unless given). `file::memory:` stays `:memory:`. Query parameters are ignored.
 */
export function sqliteFilePath(databaseUrl: string, base: string = process.cwd()): string {
  if (!databaseUrl.startsWith("file:")) throw new Error(`Not a SQLite URL: ${redactUrl(databaseUrl)}`);
  const withoutScheme = databaseUrl.slice("file:".length).replace(/[?#].*$/, "");
  // `file:///abs/path` and `file:/abs/path` are both absolute; `file:./x` and `file:x` are relative.
  const filePath = withoutScheme.startsWith("//") ? withoutScheme.slice(2) : withoutScheme;
  if (filePath === "") throw new Error(`SQLite URL has no file path: ${databaseUrl}`);
  if (filePath === ":memory:") return filePath;
  return path.resolve(base, filePath);
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
