/**
 * better-auth's endpoints, as far as the console opens them (lib/auth/endpoints.ts): sign-in,
 * sign-out, the session, and the OAuth round trip when SSO is configured. Everything else it mounts
 * answers 404 here, before better-auth reads the request.
 */
import { NextResponse } from "next/server";
import { getAuth } from "@/lib/auth/auth";
import { isOpenAuthEndpoint } from "@/lib/auth/endpoints";
import { httpStatusOf } from "@/lib/errors";
import { withClientAddress } from "@/lib/http/client-address";
import { readBodyBytes, readJsonBody } from "@/lib/http/json-body";
import { MAX_REQUEST_BODY_BYTES } from "@/lib/http/limits.mjs";
import { unstorableTextIn, unstorableTextProblem, type UnstorableText } from "@/lib/safe-text";

export const dynamic = "force-dynamic";

const handle = async (request: Request) => {
  const url = new URL(request.url);
  if (!isOpenAuthEndpoint(request.method, url.pathname)) {
    return NextResponse.json(
      {
        ok: false,
        error: { code: "not_found", message: "No such endpoint. Users and roles are managed at /admin/users (or /api/admin/users)." },
      },
      { status: httpStatusOf("not_found") },
    );
  }
  // better-auth looks a callback's state, or a sign-in's email, up as sent: on PostgreSQL a NUL fails
  // the query itself, and its own refusals are not in the console's error shape.
  const problem = unstorableTextInParams(url.searchParams, "query") ?? (await unstorableTextInBody(request));
  if (problem) {
    return NextResponse.json(
      { ok: false, error: { code: "invalid_input", message: problem.message, issues: [problem] } },
      { status: httpStatusOf("invalid_input") },
    );
  }
  // Its rate limit reads the client address header: only ever the one server.mjs stamped.
  return (await getAuth()).handler(withClientAddress(request));
};

/** Each parameter of a query or a form, a repeated one too. */
function unstorableTextInParams(params: URLSearchParams, where: "query" | "form"): UnstorableText | undefined {
  for (const [name, value] of params) {
    const problem = unstorableTextProblem(name) ?? unstorableTextProblem(value);
    if (problem) return { path: name, message: `The ${where} parameter ${JSON.stringify(name.slice(0, 40))} ${problem}.` };
  }
  return undefined;
}

/**
 * The body's unstorable text: a sign-in's JSON, or the form an identity provider posts back. Read
 * from a copy, so better-auth still reads the request; a body neither can read is left to it.
 */
async function unstorableTextInBody(request: Request) {
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  if (type.startsWith("application/json")) {
    const body = await readJsonBody(request.clone(), MAX_REQUEST_BODY_BYTES);
    return body.ok ? unstorableTextIn(body.value) : undefined;
  }
  if (type.startsWith("application/x-www-form-urlencoded")) {
    const bytes = await readBodyBytes(request.clone(), MAX_REQUEST_BODY_BYTES);
    return bytes ? unstorableTextInParams(new URLSearchParams(new TextDecoder().decode(bytes)), "form") : undefined;
  }
  return undefined;
}

// OPTIONS too: Next would otherwise answer it for every path under /api/auth/ itself.
export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as OPTIONS };
