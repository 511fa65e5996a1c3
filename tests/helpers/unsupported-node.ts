/**
 * The machine's own Node when it is one the console refuses (these machines ship Node 20 in
 * /usr/bin), for tests of what an unsupported Node is told; undefined where there is none.
 */
import { execFileSync } from "node:child_process";
import { nodeVersionProblem } from "../../lib/node-version.mjs";

export const unsupportedNode = ["/usr/bin/node", "/usr/local/bin/node"].find((candidate) => {
  try {
    return nodeVersionProblem(execFileSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8" }).trim()) !== null;
  } catch {
    return false;
  }
});
