// `npm run db:generate` (also the postinstall): generates the Prisma clients, the console's and the
// store package's, for both providers.
// The Prisma CLI insists on having a schema engine binary before it does anything, and cannot
// download one here; `generate` only checks that the file exists, so any executable will do.
// An engine path already set in the environment wins.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { PROJECT_ROOT, prismaPaths, storePrismaPaths } from "../lib/db/prisma-paths.ts";

const require = createRequire(import.meta.url);
const prismaCli = path.join(path.dirname(require.resolve("prisma/package.json")), "build/index.js");
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath };

const providers: Array<"sqlite" | "postgres"> = ["sqlite", "postgres"];
const schemaFolders = [
  ...providers.map((provider) => prismaPaths(provider).schemaFolder),
  ...providers.map((provider) => storePrismaPaths(provider).schemaFolder),
];
for (const folder of schemaFolders) {
  const schema = path.relative(PROJECT_ROOT, folder);
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
