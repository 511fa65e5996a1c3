// `npm run api:types`: writes the JSON API's TypeScript types (lib/openapi/client-types.ts) to
// examples/api-client/generated/api-types.ts (also run by postinstall); `-- --check` only says whether
// that file is up to date.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { CLIENT_TYPES_FILE, clientTypes } from "../lib/openapi/client-types.ts";

const text = await clientTypes();
if (process.argv.includes("--check")) {
  const current = await readFile(CLIENT_TYPES_FILE, "utf8").catch(() => "");
  if (current !== text) {
    console.error(`${CLIENT_TYPES_FILE} is not what the OpenAPI document makes: run npm run api:types`);
    process.exit(1);
  }
  console.log(`${CLIENT_TYPES_FILE} is up to date`);
} else {
  await mkdir(path.dirname(CLIENT_TYPES_FILE), { recursive: true });
  await writeFile(CLIENT_TYPES_FILE, text);
  console.log(`wrote ${CLIENT_TYPES_FILE}`);
}
process.exit(0);
