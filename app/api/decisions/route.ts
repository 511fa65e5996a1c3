/**
 * POST /api/decisions — the HTTP face of the decision actions, for scripts and CI checks.
 * Body: { action: "approve" | "decline" | "resume", runId, toolCallId, agentId?, reason?, resumeData? }
 * (resumeData as JSON text, like the console's editor). It calls the very same server actions, so the
 * signed-in user's role is checked there; a cross-site request is refused here.
 */
import { NextResponse } from "next/server";
import { approveToolCall } from "@/lib/actions/approve-tool-call";
import { declineToolCall } from "@/lib/actions/decline-tool-call";
import { resumeToolCall } from "@/lib/actions/resume-tool-call";
import { httpStatusOf } from "@/lib/actions/http";
import { crossSiteProblem } from "@/lib/actions/same-origin";

export async function POST(request: Request) {
  const crossSite = crossSiteProblem(request);
  if (crossSite) return NextResponse.json({ ok: false, error: { code: "cross_site", message: crossSite } }, { status: 403 });
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return NextResponse.json({ ok: false, error: { code: "invalid_input", message: "The request body is not valid JSON." } }, { status: 400 });
  }
  const { action, ...input } = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const result =
    action === "approve"
      ? await approveToolCall(input as never)
      : action === "decline"
        ? await declineToolCall(input as never)
        : action === "resume"
          ? await resumeToolCall(input as never)
          : ({ ok: false, error: { code: "invalid_input", message: 'action must be "approve", "decline" or "resume".' } } as const);
  return NextResponse.json(result, { status: result.ok ? 200 : httpStatusOf(result.error.code) });
}
