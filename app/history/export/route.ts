/** GET /history/export?… — the filtered decision history as a CSV download. */
import { authorize } from "@/lib/actions/authorize";
import { parseInput } from "@/lib/actions/result";
import { httpStatusOf } from "@/lib/errors";
import { auditCsv } from "@/lib/audit/queries";
import { auditQuery } from "@/lib/search-params";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const access = await authorize("read");
  if (!access.ok) return Response.json({ ok: false, error: access.error }, { status: httpStatusOf(access.error.code) });
  const parsed = parseInput(auditQuery, Object.fromEntries(new URL(request.url).searchParams));
  // Strict like the JSON API: a filter that cannot apply is a 400 naming it, never a download of something else.
  if (!parsed.ok) return Response.json(parsed, { status: 400 });
  const rows = auditCsv(parsed.data);
  // The header and the first batch are read before answering: once a 200 is sent, a failing
  // query can only cut the download short, which a browser may save as a whole file.
  const first: string[] = [];
  try {
    for (let read = 0; read < 2; read++) {
      const { value, done } = await rows.next();
      if (done) break;
      first.push(value);
    }
  } catch (error) {
    console.error("[history export]", error);
    return Response.json(
      {
        ok: false,
        error: { code: "internal", message: "The history could not be read. Try again; if it persists, check the server log." },
      },
      { status: httpStatusOf("internal") },
    );
  }
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const ready = first.shift();
      if (ready !== undefined) return controller.enqueue(encoder.encode(ready));
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
