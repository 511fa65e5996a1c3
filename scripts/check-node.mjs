// Stops at once on a Node.js the console does not support, naming the one it needs (lib/node-version.mjs).
// Run by `npm install` (preinstall), `npm run demo` and `npm test` before anything else; with
// `--installed` (demo, test) also on a checkout that `npm install` has not completed
// (lib/installation.mjs), naming it rather than failing on the first missing package.
import { SCRIPT_PACKAGES, installationProblem } from "../lib/installation.mjs";
import { nodeVersionProblem } from "../lib/node-version.mjs";

const problem = process.argv.includes("--installed") ? installationProblem(SCRIPT_PACKAGES) : nodeVersionProblem();
if (problem) {
  console.error(`Stopping: ${problem}`);
  process.exit(1);
}
