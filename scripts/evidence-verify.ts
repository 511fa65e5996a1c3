/**
 * `EVIDENCE_SIGNING_KEY=… npm run evidence:verify -- <bundle.json>`: checks a saved evidence bundle's
 * signature (lib/audit/evidence-signature.ts). Exits 0 when it is valid, 1 when not, 2 on bad usage.
 */
import { readFile } from "node:fs/promises";
import { checkEvidenceSignature, evidenceKey } from "../lib/audit/evidence-signature.ts";

const file = process.argv[2];
const key = evidenceKey();
if (!file || !key.ok) {
  console.error(key.ok ? "Usage: npm run evidence:verify -- <bundle.json>" : key.message);
  process.exit(2);
}
const result = checkEvidenceSignature(await readFile(file, "utf8"), key.key);
console.log(result.message);
process.exit(result.ok ? 0 : 1);
