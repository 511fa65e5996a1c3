/**
 * The Node.js versions the console and its store run on. `@mastra/core` declares node >= 22.13, but
 * better-sqlite3 13 (Node-API; 12 aborts on Node >= 24.19) crashes with a segmentation fault on
 * 22.13.x as soon as it opens a database (seen here on 22.13.1), and posthog-node, a dependency of
 * `@mastra/core`, declares `^20.20.0 || >=22.22.0`: npm refuses to install it on an older 22
 * (engine-strict, .npmrc), so the floor is 22.22, the first 22 that every installed package accepts
 * (tests/package/engines.test.ts reads them all). The suite runs on Node 24 LTS, and again partly on
 * the floor in CI (.ci/run). Node 20 is past its end of life.
 * Plain JavaScript without imports: package scripts run it before anything is installed.
 * Every `engines` field says `>=` this (tests/package/engines.test.ts).
 */
export const MINIMUM_NODE = "22.22.0";
/** What CI installs and the README recommends. */
export const TESTED_NODE = "24";
/**
 * Node from the npm registry (package `node`: a real binary), with an npm of its own (package `npm`;
 * the `node` package has none, and an npm older than the Node it runs on may not work), both in
 * that folder's node_modules/.bin. The README gives the same command.
 */
export const GET_TESTED_NODE =
  `npm install --prefix ~/.cache/node${TESTED_NODE} node@${TESTED_NODE} npm@11 && ` +
  `export PATH=~/.cache/node${TESTED_NODE}/node_modules/.bin:$PATH`;

/** Why this Node cannot run the console, in one line, or null when it can. */
export function nodeVersionProblem(version = process.versions.node) {
  const [major, minor] = version.split(".").map(Number);
  const [minMajor, minMinor] = MINIMUM_NODE.split(".").map(Number);
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return null;
  return (
    `this is Node.js ${version}; the console needs Node.js ${MINIMUM_NODE} or newer (Node ${TESTED_NODE} LTS recommended). ` +
    `Install it from nodejs.org or your package manager, or with its npm from the npm registry: \`${GET_TESTED_NODE}\`.`
  );
}
