/** GET /history/export?… — the filtered decision history as a CSV download. */
import { authorize } from "@/lib/actions/authorize";
import { httpStatusOf } from "@/lib/errors";
import { auditCsv } from "@/lib/audit/queries";
import { auditQuery } from "@/lib/search-params";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const access = await authorize("read");
  if (!access.ok) return Response.json({ ok: false, error: access.error }, { status: httpStatusOf(access.error.code) });
  const parsed = auditQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    return Response.json(
      { ok: false, error: { code: "invalid_input", message: parsed.error.issues.map((i) => i.message).join("; ") } },
      { status: 400 },
    );
  }
  const rows = auditCsv(parsed.data);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await rows.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
  });
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(":", "-");
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="decision-history-${stamp}.csv"`,
      "cache-control": "no-store",
    },
  });
}
