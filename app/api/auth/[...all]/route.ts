/** better-auth's endpoints: sign-in, sign-out, session, OAuth callbacks, admin user management. */
import { getAuth } from "@/lib/auth/auth";
import { withClientAddress } from "@/lib/http/client-address";

export const dynamic = "force-dynamic";

// Its rate limit reads the client address header: only ever the one server.mjs stamped.
const handle = async (request: Request) => (await getAuth()).handler(withClientAddress(request));

export { handle as GET, handle as POST };
