// Prints every literal text under app/ and components/: `npx tsx tests/i18n/scan.ts [--files]` (the
// list of files not yet converted in catalogs.test.ts is what `--files` prints).
import { readFileSync } from "node:fs";
import { ALLOWED_TEXT } from "./allowed-text.ts";
import { literalText, uiSourceFiles } from "./literal-text.ts";

for (const file of uiSourceFiles()) {
  const findings = literalText(file, readFileSync(file, "utf8"), ALLOWED_TEXT);
  if (process.argv.includes("--files")) {
    if (findings.length) console.log(`  "${file}",`);
  } else for (const finding of findings) console.log(`${file}:${finding.line}: ${finding.text}`);
}
