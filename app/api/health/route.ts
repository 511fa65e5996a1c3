/**
 * GET /api/health — the console is up, configured so that its pages can work, its database
 * answers and has every migration (the store's and the console's). 503 with the reason otherwise,
 * so a load balancer never sends people to a console that would answer every page with an error.
 */
import { NextResponse } from "next/server";
import { configurationProblem } from "@/lib/configuration.mjs";
import { getDb, databaseUrlFromEnv } from "@/lib/db/client";
import { migrationProblem } from "@/lib/db/migration-status.mjs";

export const dynamic = "force-dynamic";

/** Migrations are not taken back: once all are there, a poll costs one query, not a look at both histories. */
let migrationsChecked: string | null = null;

export async function GET() {
  const problem = configurationProblem();
  if (problem) return NextResponse.json({ ok: false, error: problem }, { status: 503 });
  const databaseUrl = databaseUrlFromEnv();
  if (migrationsChecked !== databaseUrl) {
    const missing = await migrationProblem(databaseUrl);
    if (missing) {
      // The answer stays terse for whoever polls it; the operator's log says what the database said.
      console.error(`[health] ${missing.message}`);
      return NextResponse.json({ ok: false, error: missing.summary }, { status: 503 });
    }
    migrationsChecked = databaseUrl;
  }
  try {
    await (await getDb()).workflowSnapshot.count({ where: { runId: "" } });
    return NextResponse.json({ ok: true });
  } catch (error) {
    console.error("[health] the database did not answer:", (error as Error).message);
    return NextResponse.json({ ok: false, error: "database unreachable" }, { status: 503 });
  }
}
