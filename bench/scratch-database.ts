/** A fresh, empty database for one benchmark child: a SQLite file in a temporary folder, or a PostgreSQL database; removed afterwards. */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { POSTGRES_ADMIN_URL } from "./stores.ts";

export async function withScratchDatabase<T>(kind: "sqlite" | "pg", name: string, work: (url: string) => Promise<T>): Promise<T> {
  if (kind === "sqlite") {
    const dir = mkdtempSync(path.join(tmpdir(), `bench-${name}-`));
    try {
      return await work(`file:${path.join(dir, `${name}.db`)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const database = `bench_${name}_${randomUUID().replaceAll("-", "")}`;
  await admin(`CREATE DATABASE "${database}"`);
  try {
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${database}`;
    return await work(url.toString());
  } finally {
    await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  }
}

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}
