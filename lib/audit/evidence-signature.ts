/**
 * The evidence bundle's signature (evidence.ts): HMAC-SHA256 with EVIDENCE_SIGNING_KEY over every
 * byte of the bundle before its last member, `,"signature":{…}}`. Whoever holds the key checks a
 * saved bundle with `npm run evidence:verify -- <file>` (or the few lines of the recipe in docs/audit.md).
 */
import { createHash, createHmac, timingSafeEqual, type Hmac } from "node:crypto";

export const SIGNATURE_ALGORITHM = "HMAC-SHA256";
/** Where the signed bytes end: the bundle's last member starts here (its final occurrence). */
export const SIGNATURE_MEMBER = ',"signature":';
const MIN_KEY_LENGTH = 32;

/** The key from EVIDENCE_SIGNING_KEY, or why there is none to sign with. */
export function evidenceKey(
  env: Record<string, string | undefined> = process.env,
): { ok: true; key: string } | { ok: false; message: string } {
  const key = env.EVIDENCE_SIGNING_KEY ?? "";
  if (key.length >= MIN_KEY_LENGTH) return { ok: true, key };
  return {
    ok: false,
    message: `Evidence is signed with EVIDENCE_SIGNING_KEY, which is ${key ? `shorter than ${MIN_KEY_LENGTH} characters` : "not set"} on this server: set it (e.g. \`openssl rand -hex 32\`) and restart.`,
  };
}

/** Names the key without revealing it: the first 16 hex digits of its SHA-256. */
export function keyIdOf(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex").slice(0, 16);
}

export function newSigner(key: string): Hmac {
  return createHmac("sha256", key);
}

export function signatureMember(key: string, hmac: Hmac): string {
  return `${SIGNATURE_MEMBER}${JSON.stringify({ algorithm: SIGNATURE_ALGORITHM, keyId: keyIdOf(key), value: hmac.digest("hex") })}}`;
}

/** Whether `text` (a whole bundle, as downloaded) carries a valid signature by `key`. */
export function checkEvidenceSignature(text: string, key: string): { ok: boolean; message: string } {
  const at = text.lastIndexOf(SIGNATURE_MEMBER);
  if (at < 0) return { ok: false, message: "The bundle has no signature." };
  let signature: { algorithm?: string; keyId?: string; value?: string };
  try {
    signature = (JSON.parse(text) as { signature: typeof signature }).signature;
  } catch {
    return { ok: false, message: "The bundle is not whole JSON: it was cut short or edited." };
  }
  if (signature?.algorithm !== SIGNATURE_ALGORITHM || typeof signature.value !== "string") {
    return { ok: false, message: `The signature is not ${SIGNATURE_ALGORITHM}.` };
  }
  if (signature.keyId !== keyIdOf(key)) return { ok: false, message: "The bundle was signed with another key." };
  const expected = Buffer.from(newSigner(key).update(text.slice(0, at), "utf8").digest("hex"));
  const given = Buffer.from(signature.value);
  const ok = given.length === expected.length && timingSafeEqual(given, expected);
  return {
    ok,
    message: ok
      ? "The signature is valid: the bundle is as the console wrote it."
      : "The signature does not match: the bundle was changed.",
  };
}
