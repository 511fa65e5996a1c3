// Stops at once on a Node.js the console does not support, naming the one it needs (lib/node-version.mjs).
// Run by `npm install` (preinstall), `npm run demo` and `npm test` before anything else.
import { nodeVersionProblem } from "../lib/node-version.mjs";

const problem = nodeVersionProblem();
if (problem) {
  console.error(`Stopping: ${problem}`);
  process.exit(1);
}
