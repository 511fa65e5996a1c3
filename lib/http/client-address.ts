/** Placeholder until server.mjs stamps the client address (see hardening-auth). */
export const CLIENT_ADDRESS_HEADER = "x-approvals-client-ip";
export function clientAddress(headers: Headers): string {
  return headers.get(CLIENT_ADDRESS_HEADER) || "unknown";
}
