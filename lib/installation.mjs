/**
 * Whether `npm install` got to its end in this checkout: the packages a command needs are there and
 * so is what the install builds last (the store package's `dist`, by the postinstall). server.mjs and
 * `npm run demo` check it before they import anything installed: a checkout where the install never
 * ran or stopped half way (an unsupported Node, a network error, Ctrl-C) otherwise fails with
 * ERR_MODULE_NOT_FOUND on whichever import comes first.
 * Plain JavaScript importing only Node's own modules, like lib/node-version.mjs.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MINIMUM_NODE, nodeVersionProblem } from "./node-version.mjs";

/** What `npm start` (server.mjs) loads: Next, and the store package's build (the postinstall's last step). */
export const SERVER_PACKAGES = ["next", "@agent-approvals/mastra-store/migrate"];
/** What the npm scripts run besides: TypeScript scripts through tsx (a devDependency). */
export const SCRIPT_PACKAGES = [...SERVER_PACKAGES, "tsx"];

/**
 * Why this checkout cannot run a command that needs `packages`, in one line, or null when it can:
 * an unsupported Node first (installing would not help), then what the install has not put in place.
 */
export function installationProblem(packages = SERVER_PACKAGES) {
  const versionProblem = nodeVersionProblem();
  if (versionProblem) return versionProblem;
  const missing = packages.filter((specifier) => !isInstalled(specifier));
  if (missing.length === 0) return null;
  return (
    `this checkout is not completely installed (missing: ${missing.join(", ")}): run \`npm install\` ` +
    `(Node.js ${MINIMUM_NODE} or newer) in it, and try again once it ends without an error.`
  );
}

/** Resolving a package's export does not look at the file it names (a `dist` not built yet): so look. */
function isInstalled(specifier) {
  try {
    return existsSync(fileURLToPath(import.meta.resolve(specifier)));
  } catch {
    return false;
  }
}
