/** better-auth's endpoints: sign-in, sign-out, session, OAuth callbacks, admin user management. */
import { getAuth } from "@/lib/auth/auth";

export const dynamic = "force-dynamic";

const handle = async (request: Request) => (await getAuth()).handler(request);

export { handle as GET, handle as POST };
