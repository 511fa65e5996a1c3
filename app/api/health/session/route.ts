/**
 * GET /api/health/session — 200 `{ ok: true }` for a signed-in session that may read, 401/403
 * otherwise. It reads the session exactly as every page and route does (`authorize("read")`) and
 * nothing else, so it is the floor of any signed-in request: bench/open-loop.ts measures the queue
 * against it, and an operator can check a cookie and the session store with it.
 */
import { NextResponse } from "next/server";
import { authorize } from "@/lib/actions/authorize";
import { httpStatusOf } from "@/lib/errors";

export const dynamic = "force-dynamic";

export async function GET() {
  const access = await authorize("read");
  if (!access.ok) return NextResponse.json({ ok: false, error: access.error }, { status: httpStatusOf(access.error.code) });
  return NextResponse.json({ ok: true });
}
