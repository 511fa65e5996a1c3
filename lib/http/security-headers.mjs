/**
 * Headers every response of the console carries: it is never framed (clickjacking a decision
 * button), content types are not guessed, other sites see only our origin as referrer, and in
 * production browsers keep to https. No script policy: Next's inline scripts would need nonces.
 * Plain JavaScript for next.config.mjs and server.mjs (its own refusals) alike.
 */
export function securityHeaders({ production }) {
  return [
    { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    ...(production ? [{ key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" }] : []),
  ];
}
