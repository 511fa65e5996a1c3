/**
 * A request URL's percent-escapes, screened by server.mjs before Next sees them. Next decodes a
 * dynamic route's path segment (an id) with decodeURIComponent while matching the route, and a
 * sequence that is not UTF-8 (`%FF`, or `%ED%A0%80`, a lone surrogate encoded) makes it throw there,
 * before any handler of ours runs: a plain-text 500. (A NUL, `%00`, is valid UTF-8: it reaches the
 * handler, whose input check refuses it.) Plain JavaScript so server.mjs can import it (types:
 * request-url.d.mts); no imports.
 */

/** Paths whose answers are JSON (the JSON API, and the CSV export's refusals): a malformed URL is refused in JSON. */
export function answersWithJson(pathname) {
  return pathname.startsWith("/api/") || pathname === "/history/export";
}

/**
 * Why `url` (a request target: path and query) cannot be read as text, or null when it can: a path
 * whose escapes do not decode (also a lone `%`), or a query whose `%XX` escapes are not UTF-8 (a
 * lone `%` in a query is only a percent sign, as URLSearchParams reads it).
 */
export function malformedUrlProblem(url) {
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? "" : url.slice(queryAt + 1);
  if (!decodes(path)) return "The URL's path is not valid UTF-8 once percent-decoded (an id in it cannot be read).";
  if (!decodes(query.replace(/%(?![0-9a-f]{2})/gi, "%25"))) {
    return "The URL's query is not valid UTF-8 once percent-decoded (a parameter in it cannot be read).";
  }
  return null;
}

/**
 * `url` with its path's undecodable escapes made decodable: each run of escapes is decoded as a
 * browser would show it (a byte that is not UTF-8 becomes U+FFFD) and escaped again, and a lone `%`
 * becomes `%25`. A page then answers such a path as any other it does not know (its own not-found).
 */
export function withDecodablePath(url) {
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const fixed = path.replace(/%(?![0-9a-f]{2})/gi, "%25").replace(/(?:%[0-9a-f]{2})+/gi, (escapes) => {
    const bytes = Uint8Array.from(escapes.slice(1).split("%"), (hex) => parseInt(hex, 16));
    return encodeURIComponent(new TextDecoder().decode(bytes));
  });
  return queryAt === -1 ? fixed : fixed + url.slice(queryAt);
}

function decodes(text) {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
