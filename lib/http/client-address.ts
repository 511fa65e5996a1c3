/**
 * The client address of a request, for rate limits and refusals: the one server.mjs stamped
 * (lib/http/forwarded.mjs says how it is found and when X-Forwarded-For is believed). Without
 * server.mjs (plain `next start`) nothing trustworthy names the client, so every request is
 * "unknown": all clients share one bucket instead of each spoofed header getting a fresh one.
 */
import { CLIENT_ADDRESS_HEADER, clientAddressesStamped, UNKNOWN_CLIENT_ADDRESS } from "./forwarded.mjs";

export { CLIENT_ADDRESS_HEADER, UNKNOWN_CLIENT_ADDRESS };

/** The stamped client address, or "unknown". */
export function clientAddress(headers: Headers): string {
  if (!clientAddressesStamped()) return UNKNOWN_CLIENT_ADDRESS;
  return headers.get(CLIENT_ADDRESS_HEADER)?.trim() || UNKNOWN_CLIENT_ADDRESS;
}

/**
 * `request` as code that reads CLIENT_ADDRESS_HEADER itself (better-auth's rate limit) must see
 * it: unchanged under server.mjs, without the client's own copy of the header otherwise.
 */
export function withClientAddress(request: Request): Request {
  if (clientAddressesStamped() || !request.headers.has(CLIENT_ADDRESS_HEADER)) return request;
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_ADDRESS_HEADER);
  return new Request(request, { headers });
}
