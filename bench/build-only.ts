/** Builds (or reuses) the benchmark's stores without timing anything: `tsx bench/build-only.ts <size> [kinds…]`. */
import { loadTemplates } from "./backlog.ts";
import { buildStore, type StoreKind } from "./stores.ts";

const size = Number(process.argv[2] ?? 100_000);
const kinds = (
  process.argv.slice(3).length ? process.argv.slice(3) : ["ours-sqlite", "ours-pg", "mastra-libsql", "mastra-pg"]
) as StoreKind[];
const { templates, hash } = await loadTemplates();
for (const kind of kinds) console.log(JSON.stringify(await buildStore(kind, size, templates, hash, console.log)));
process.exit(0);
