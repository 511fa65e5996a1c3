/** Requests to the JSON API's configuration routes (/api/admin/*, /api/profile/*) of a console server under test. */
import { disconnectDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie, type TestAccount } from "./accounts.ts";
import { startConsoleServer, type ConsoleServer } from "./console-server.ts";
import { createTestDatabase, type TestDatabase } from "./databases.ts";

export interface ApiAnswer {
  status: number;
  body: { ok: boolean; data?: any; error?: { code: string; message: string; issues?: Array<{ path: string; message: string }> } };
}

export interface ApiRequest {
  cookie?: string | null;
  /** A value sent as JSON, or `raw` text as it is. */
  body?: unknown;
  raw?: string;
  origin?: string;
  contentType?: string;
}

export function configApi(server: ConsoleServer) {
  return async function api(method: string, path: string, { cookie, body, raw, origin = server.url, contentType }: ApiRequest = {}) {
    const text = raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const response = await fetch(`${server.url}${path}`, {
      method,
      redirect: "manual",
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(text !== undefined ? { "content-type": contentType ?? "application/json", origin } : {}),
      },
      body: text,
    });
    const answer = await response.text();
    let parsed: ApiAnswer["body"];
    try {
      parsed = JSON.parse(answer) as ApiAnswer["body"];
    } catch {
      throw new Error(`${method} ${path} answered ${response.status} with no JSON: ${answer.slice(0, 300)}`);
    }
    return { status: response.status, body: parsed } satisfies ApiAnswer;
  };
}

export type Role3 = "admin" | "reviewer" | "support";

export interface SignedInConsole {
  database: TestDatabase;
  server: ConsoleServer;
  api: ReturnType<typeof configApi>;
  accounts: Record<Role3, TestAccount>;
  /** Each account's session cookie, as a browser signed in to `server` holds it. */
  cookies: Record<Role3, string>;
}

/** A fresh database, a console server on it, and one signed-in account per role (the admin named `adminName`). */
export async function startSignedInConsole(kind: "sqlite" | "postgres", adminName = "Ada"): Promise<SignedInConsole> {
  const database = await createTestDatabase(kind);
  const [server, admin, reviewer, support] = await Promise.all([
    startConsoleServer(database.url),
    createTestAccount(database.url, "admin", adminName),
    createTestAccount(database.url, "reviewer", "Rita"),
    createTestAccount(database.url, "support", "Sam"),
  ]);
  const [adminCookie, reviewerCookie, supportCookie] = await Promise.all([
    sessionCookie(database.url, admin),
    sessionCookie(database.url, reviewer),
    sessionCookie(database.url, support),
  ]);
  return {
    database,
    server,
    api: configApi(server),
    accounts: { admin, reviewer, support },
    cookies: { admin: adminCookie, reviewer: reviewerCookie, support: supportCookie },
  };
}

export async function stopSignedInConsole(started: Partial<Pick<SignedInConsole, "database" | "server">>): Promise<void> {
  await started.server?.stop();
  if (!started.database) return;
  await disconnectDb(started.database.url);
  await started.database.drop();
}
