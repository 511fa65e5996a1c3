/**
 * SSRF guard: a webhook URL is chosen by an admin but fetched by the console, from inside its own
 * network. Unless `WEBHOOKS_ALLOW_PRIVATE=1`, an endpoint may not point at loopback, private,
 * link-local, shared or otherwise non-public addresses: checked when it is saved (so the admin learns
 * early) and again on every connection, on the address actually connected to (a name may resolve
 * differently later). Redirects are never followed (lib/webhooks/send.ts).
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { promises as dns } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { idTextProblem } from "../safe-text.ts";

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const)
  blocked.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 127], // :: and ::1
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(network, prefix, "ipv6");

export const privateAddressesAllowed = () => process.env.WEBHOOKS_ALLOW_PRIVATE === "1";

/** Whether `address` (an IPv4 or IPv6 literal) is one the console must not send webhooks to. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]!);
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? "ipv4" : "ipv6");
}

export class PrivateAddressError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private or local address; set WEBHOOKS_ALLOW_PRIVATE=1 to allow it.`);
  }
}

/** The longest endpoint URL, as typed and as stored (normalised, it may grow: non-ASCII is percent-encoded). */
export const ENDPOINT_URL_MAX_LENGTH = 2048;

export type EndpointUrlCheck = { url: string; problem: null } | { url: null; problem: string };

const refused = (problem: string): EndpointUrlCheck => ({ url: null, problem });

/**
 * The URL an endpoint is stored with, normalised as `new URL()` reads it (the href every check
 * looks at and every delivery is sent to), or why it cannot be one: text with a control character
 * or invalid UTF-16 (the parser would silently drop a tab or a line break, or encode a NUL, so the
 * URL checked would not be the one typed), not http(s), credentials in it. No address check:
 * `checkEndpointUrl` adds it.
 */
export function normalizeEndpointUrl(raw: string): EndpointUrlCheck {
  const textProblem = idTextProblem(raw);
  if (textProblem) return refused(`url ${textProblem}: type the address without it.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refused("Not a URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return refused("Only http and https URLs can receive webhooks.");
  if (url.username || url.password) return refused("Put no credentials in the URL.");
  if (url.href.length > ENDPOINT_URL_MAX_LENGTH)
    return refused(`url is longer than ${ENDPOINT_URL_MAX_LENGTH} characters once normalised.`);
  return { url: url.href, problem: null };
}

/** `normalizeEndpointUrl`, then the SSRF guard on the normalised URL's host (unless private addresses are allowed). */
export async function checkEndpointUrl(raw: string): Promise<EndpointUrlCheck> {
  const normalised = normalizeEndpointUrl(raw);
  if (normalised.problem !== null || privateAddressesAllowed()) return normalised;
  const host = new URL(normalised.url).hostname.replace(/^\[|\]$/g, "");
  try {
    const addresses = isIP(host) ? [host] : (await dns.lookup(host, { all: true })).map((entry) => entry.address);
    const privateOne = addresses.find(isPrivateAddress);
    return privateOne ? refused(new PrivateAddressError(host, privateOne).message) : normalised;
  } catch {
    return refused(`${host} does not resolve.`);
  }
}

/**
 * The `lookup` for the connection itself: resolves as usual, then refuses a private address, so
 * what is checked is what is connected to.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    const refused = privateAddressesAllowed() ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused) return callback(new PrivateAddressError(hostname, refused.address), "", 0);
    if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
};
