/**
 * A small OAuth 2.0 / OpenID provider on 127.0.0.1 (PORT_RANGES.oidcProvider) for single sign-on tests:
 * discovery, an authorization endpoint that signs the visitor in at once and redirects back with a
 * code, a token endpoint and a userinfo endpoint answering with `claims` (set per test). It issues
 * no ID token and publishes no keys, so the console reads who signed in from userinfo.
 */
import http from "node:http";
import { freePort, PORT_RANGES, portRange } from "./ports.ts";

export interface OidcProvider {
  discoveryUrl: string;
  /** What userinfo answers with next; a test may set anything, however hostile. */
  claims: Record<string, unknown>;
  /** The requests the token endpoint got (their form bodies). */
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

const ports = portRange(...PORT_RANGES.oidcProvider);

export async function startOidcProvider(claims: Record<string, unknown>): Promise<OidcProvider> {
  const port = await freePort(ports);
  const issuer = `http://127.0.0.1:${port}`;
  const provider: OidcProvider = {
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    claims,
    tokenRequests: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const json = (response: http.ServerResponse, body: unknown) =>
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  const server = http.createServer((request, response) => {
    const url = new URL(request.url!, issuer);
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (url.pathname === "/.well-known/openid-configuration") {
        return json(response, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          userinfo_endpoint: `${issuer}/userinfo`,
          response_types_supported: ["code"],
          // An OpenID provider (the account is keyed on `sub`), but without a JWKS: no ID token to verify.
          id_token_signing_alg_values_supported: ["RS256"],
        });
      }
      if (url.pathname === "/authorize") {
        const back = new URL(url.searchParams.get("redirect_uri")!);
        back.searchParams.set("code", "code-for-the-test");
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        return response.writeHead(302, { location: back.href }).end();
      }
      if (url.pathname === "/token") {
        provider.tokenRequests.push(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
        return json(response, { access_token: "access-token-for-the-test", token_type: "Bearer", expires_in: 3600 });
      }
      if (url.pathname === "/userinfo") return json(response, provider.claims);
      response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return provider;
}
