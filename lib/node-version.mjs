/**
 * The Node.js versions the console and its store run on. The floor is Mastra's own (`@mastra/core`
 * declares node >= 22.13); the suite runs on Node 24 LTS, and again partly on 22.13 in CI. Node 20
 * is past its end of life and better-sqlite3 13 (Node-API; 12 aborts on Node >= 24.19) needs 22.
 * Plain JavaScript without imports: package scripts run it before anything is installed.
 * Every `engines` field says `>=` this (tests/package/engines.test.ts).
 */
export const MINIMUM_NODE = "22.13.0";
/** What CI installs and the README recommends. */
export const TESTED_NODE = "24";

/** Why this Node cannot run the console, in one line, or null when it can. */
export function nodeVersionProblem(version = process.versions.node) {
  const [major, minor] = version.split(".").map(Number);
  const [minMajor, minMinor] = MINIMUM_NODE.split(".").map(Number);
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return null;
  return (
    `this is Node.js ${version}; the console needs Node.js ${MINIMUM_NODE} or newer (Node ${TESTED_NODE} LTS recommended). ` +
    `Install it from nodejs.org or your package manager, or from the npm registry: \`npm install --prefix ~/.cache/node${TESTED_NODE} node@${TESTED_NODE}\` ` +
    `and put ~/.cache/node${TESTED_NODE}/node_modules/node/bin first on PATH.`
  );
}
