/**
 * better-auth's endpoints, as far as the console opens them (lib/auth/endpoints.ts): sign-in,
 * sign-out, the session, and the OAuth round trip when SSO is configured. Everything else it mounts
 * answers 404 here, before better-auth reads the request.
 */
import { NextResponse } from "next/server";
import { getAuth } from "@/lib/auth/auth";
import { isOpenAuthEndpoint } from "@/lib/auth/endpoints";
import { httpStatusOf } from "@/lib/errors";
import { unstorableTextProblem } from "@/lib/safe-text";
import { withClientAddress } from "@/lib/http/client-address";

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
  // better-auth looks a callback's state up as sent: on PostgreSQL a NUL fails the query itself.
  for (const [name, value] of url.searchParams) {
    const problem = unstorableTextProblem(name) ?? unstorableTextProblem(value);
    if (problem) {
      return NextResponse.json(
        { ok: false, error: { code: "invalid_input", message: `The query parameter ${JSON.stringify(name.slice(0, 40))} ${problem}.` } },
        { status: httpStatusOf("invalid_input") },
      );
    }
  }
  // Its rate limit reads the client address header: only ever the one server.mjs stamped.
  return (await getAuth()).handler(withClientAddress(request));
};

// OPTIONS too: Next would otherwise answer it for every path under /api/auth/ itself.
export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as OPTIONS };
