/**
 * GET /api/health — the console is up, configured so that its pages can work, and its database
 * answers. 503 with the reason otherwise, so a load balancer never sends people to a console
 * that would answer every page with an error.
 */
import { NextResponse } from "next/server";
import { configurationProblem } from "@/lib/configuration.mjs";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

export async function GET() {
  const problem = configurationProblem();
  if (problem) return NextResponse.json({ ok: false, error: problem }, { status: 503 });
  try {
    await (await getDb()).workflowSnapshot.count({ where: { runId: "" } });
    return NextResponse.json({ ok: true });
  } catch (error) {
    // The answer stays terse for whoever polls it; the operator's log says what the database said.
    console.error("[health] the database did not answer:", (error as Error).message);
    return NextResponse.json({ ok: false, error: "database unreachable" }, { status: 503 });
  }
}
