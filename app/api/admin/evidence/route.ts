/**
 * GET /api/admin/evidence?from=YYYY-MM-DD&to=YYYY-MM-DD[&format=json|csv] — oversight evidence for a
 * period (lib/audit/evidence.ts; docs/evidence.md): a JSON bundle signed with EVIDENCE_SIGNING_KEY
 * (HMAC-SHA256, its last member), or the same decisions as CSV. Admins only. The audit chain is
 * verified first; its result and head are in the bundle, and in the CSV's X-Audit-Chain header.
 */
import { authorize } from "@/lib/actions/authorize";
import { parseInput } from "@/lib/actions/result";
import { httpStatusOf } from "@/lib/errors";
import { getDb } from "@/lib/db/client";
import { evidenceCsv, evidenceInput, evidenceJson, periodOf, verifiedChain } from "@/lib/audit/evidence";
import { evidenceKey, newSigner, signatureMember } from "@/lib/audit/evidence-signature";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const access = await authorize("configure");
  if (!access.ok) return Response.json({ ok: false, error: access.error }, { status: httpStatusOf(access.error.code) });
  const parsed = parseInput(evidenceInput, Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.ok) return Response.json(parsed, { status: 400 });
  const key = evidenceKey();
  if (parsed.data.format === "json" && !key.ok) {
    const error = { code: "evidence_not_configured" as const, message: key.message };
    return Response.json({ ok: false, error }, { status: httpStatusOf(error.code) });
  }
  const period = periodOf(parsed.data);
  const db = await getDb();
  let chain;
  try {
    chain = await verifiedChain(db);
  } catch (error) {
    console.error("[evidence]", error);
    const failure = {
      code: "internal" as const,
      message: "The audit log could not be read. Try again; if it persists, check the server log.",
    };
    return Response.json({ ok: false, error: failure }, { status: httpStatusOf("internal") });
  }
  const days = `${period.from.toISOString().slice(0, 10)}_${new Date(period.until.getTime() - 1).toISOString().slice(0, 10)}`;
  const chainHeader = `${chain.ok ? "ok" : `broken (${chain.problem!.kind})`}; seq=${chain.head.seq}; hash=${chain.head.hash}`;
  if (parsed.data.format === "csv") {
    return streamed(evidenceCsv(db, period), (text) => text, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="oversight-evidence-${days}.csv"`,
      "x-audit-chain": chainHeader,
    });
  }
  const signer = newSigner((key as { key: string }).key);
  return streamed(
    evidenceJson(db, period, chain),
    (text) => {
      signer.update(text, "utf8");
      return text;
    },
    {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="oversight-evidence-${days}.json"`,
      "x-audit-chain": chainHeader,
    },
    () => signatureMember((key as { key: string }).key, signer),
  );
}

/** The pieces as the body, read as the client reads; `last` (the signature) once they are all sent. */
function streamed(
  pieces: AsyncGenerator<string>,
  seen: (text: string) => string,
  headers: Record<string, string>,
  last?: () => string,
): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await pieces.next();
        if (!done) return controller.enqueue(encoder.encode(seen(value)));
        if (last) controller.enqueue(encoder.encode(last()));
        controller.close();
      } catch (error) {
        // Cut short: the bundle is then not whole JSON and its signature check fails, as it should.
        console.error("[evidence]", error);
        controller.error(error);
      }
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
  return new Response(body, { headers: { ...headers, "cache-control": "no-store" } });
}
