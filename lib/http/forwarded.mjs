/**
 * Who is on the other end of a request. Plain JavaScript because server.mjs (run by Node, not
 * bundled) stamps every request with it before Next sees it; lib/http/client-address.ts reads the
 * stamp (types: forwarded.d.mts). X-Forwarded-For is anyone's to write, so it is believed only
 * when the socket peer is a proxy listed in TRUSTED_PROXIES, and then only from the right: each
 * trusted proxy appends the address it saw, so the right-most address that is not a trusted proxy
 * is the client. Everything to its left came from the client and is ignored.
 */
import { BlockList, isIP } from "node:net";

/** The header server.mjs sets on every request (replacing any the client sent). */
export const CLIENT_ADDRESS_HEADER = "x-approvals-client-ip";

/** What a request's client address is when nothing trustworthy says it. */
export const UNKNOWN_CLIENT_ADDRESS = "unknown";

/**
 * TRUSTED_PROXIES (`10.0.0.5, 10.1.0.0/16, fd00::/8`) as a BlockList. Empty or unset trusts no
 * one: X-Forwarded-For is then ignored. Throws on an entry that is not an IP address or CIDR range,
 * so a typo never silently trusts nobody (or somebody else).
 */
export function parseTrustedProxies(value = "") {
  const trusted = new BlockList();
  for (const entry of value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [, rawAddress, prefix] = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(entry) ?? [];
    const address = normalizeAddress(rawAddress);
    const family = isIP(address ?? "") === 4 ? "ipv4" : "ipv6";
    if (!address || Number(prefix) > (family === "ipv4" ? 32 : 128)) {
      throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    }
    if (prefix === undefined) trusted.addAddress(address, family);
    else trusted.addSubnet(address, Number(prefix), family);
  }
  return trusted;
}

/**
 * The client's address: the socket peer's, or, when the peer is a trusted proxy, the right-most
 * X-Forwarded-For entry that is not a trusted proxy. If the chain holds nothing usable there, the
 * last trusted hop is the client (a proxy talking for itself), never an address it did not see.
 */
export function clientAddressOf(remoteAddress, forwardedFor, trusted) {
  let client = normalizeAddress(remoteAddress);
  if (!client) return UNKNOWN_CLIENT_ADDRESS;
  const chain = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? "")).split(",");
  for (let hop = chain.length - 1; hop >= 0 && isTrusted(client, trusted); hop--) {
    const address = normalizeAddress(chain[hop]);
    if (!address) break;
    client = address;
  }
  return client;
}

/**
 * A bare IPv4 or IPv6 address, or null: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as IPv4, IPv6 in lower
 * case without a zone (`fe80::1%eth0` → `fe80::1`), so one client is always written one way.
 */
export function normalizeAddress(value) {
  const address = String(value ?? "")
    .trim()
    .toLowerCase()
    .replace(/%[^%]*$/, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address)?.[1];
  if (mapped && isIP(mapped) === 4) return mapped;
  return isIP(address) ? address : null;
}

function isTrusted(address, trusted) {
  return trusted.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
}

const STAMPED = Symbol.for("approvals-console.client-address-stamped");

/** server.mjs calls this once: from then on, CLIENT_ADDRESS_HEADER on a request is ours. */
export function markClientAddressesStamped() {
  globalThis[STAMPED] = true;
}

/**
 * Whether this process stamps CLIENT_ADDRESS_HEADER (it runs under server.mjs). Under plain
 * `next start` nobody does, so the header is whatever the client sent and must not be believed.
 */
export function clientAddressesStamped() {
  return globalThis[STAMPED] === true;
}
