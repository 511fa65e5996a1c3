/**
 * The catalog namespaces each route's client components read: what its provider
 * (components/client-messages.tsx) sends to the browser, instead of the whole catalog on every page.
 * tests/i18n/client-namespaces.test.ts follows each route's imports into its client modules and fails
 * when one reads a namespace its route does not pick. "layout" is the root layout's provider: the
 * header's menu, and app/error.tsx.
 */
export const CLIENT_NAMESPACES = {
  layout: ["common", "nav", "pages"],
  "/": ["assignment", "common", "decision", "errors", "linkProblems", "queue", "run", "runDetail", "time"],
  "/history": ["errors", "history.chain"],
  "/insights": [],
  "/profile": ["common", "errors", "profile", "tokens"],
  "/sign-in": ["signIn"],
  "/runs/[runId]": ["assignment", "common", "decision", "errors", "queue", "run", "runDetail", "time"],
  "/admin/users": ["errors", "roles", "users"],
  "/admin/tokens": ["errors", "tokens"],
  "/admin/agents": ["agents", "errors", "time"],
  "/admin/expiry": ["admin", "errors", "time"],
  "/admin/rules": ["admin", "common", "errors", "time"],
  "/admin/webhooks": ["admin", "errors", "time"],
} as const satisfies Record<string, readonly string[]>;

export type ClientRoute = keyof typeof CLIENT_NAMESPACES;

type Catalog = { [key: string]: unknown };

/** Only the given subtrees ("queue", "queue.badges") of a catalog, nested as in the catalog. */
export function pickMessages(messages: Catalog, paths: readonly string[]): Catalog {
  const picked: Catalog = {};
  for (const path of paths) {
    const keys = path.split(".");
    let from: unknown = messages;
    let into = picked;
    for (const [index, key] of keys.entries()) {
      if (typeof from !== "object" || from === null || !(key in from)) break;
      from = (from as Catalog)[key];
      if (index === keys.length - 1) into[key] = from;
      else into = (into[key] ??= {}) as Catalog;
    }
  }
  return picked;
}
