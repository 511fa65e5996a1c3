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

/** A URL an endpoint may have: http(s), no credentials; refuses private addresses unless allowed. */
export async function checkEndpointUrl(raw: string): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Not a URL.";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Only http and https URLs can receive webhooks.";
  if (url.username || url.password) return "Put no credentials in the URL.";
  if (privateAddressesAllowed()) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  try {
    const addresses = isIP(host) ? [host] : (await dns.lookup(host, { all: true })).map((entry) => entry.address);
    const refused = addresses.find(isPrivateAddress);
    return refused ? new PrivateAddressError(host, refused).message : null;
  } catch {
    return `${host} does not resolve.`;
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
