// `npm run db:generate` (also the postinstall): generates the Prisma client for both schemas.
// The Prisma CLI insists on having a schema engine binary before it does anything, and cannot
// download one here; `generate` only checks that the file exists, so any executable will do.
// An engine path already set in the environment wins.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { PROJECT_ROOT, prismaPaths, type DatabaseProvider } from "../lib/db/database-url.ts";

const require = createRequire(import.meta.url);
const prismaCli = path.join(path.dirname(require.resolve("prisma/package.json")), "build/index.js");
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath };

for (const provider of ["sqlite", "postgres"] satisfies DatabaseProvider[]) {
  const schema = path.relative(PROJECT_ROOT, prismaPaths(provider).schema);
  const result = spawnSync(process.execPath, [prismaCli, "generate", "--schema", schema], {
    cwd: PROJECT_ROOT,
    env,
    stdio: "inherit",
  });
  if (result.status !== 0) {
    console.error(`prisma generate failed for ${schema}`);
    process.exit(result.status ?? 1);
  }
}
