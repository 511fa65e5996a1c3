/** Once per vitest run, before any test file: the child processes' scripts compiled (tests/helpers/child-scripts.ts). */
import { compileChildScripts } from "./helpers/child-scripts.ts";

export default async function setup(): Promise<void> {
  await compileChildScripts();
}
