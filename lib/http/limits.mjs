/**
 * Request size limits, in plain JavaScript because server.mjs (run by Node, not bundled) enforces
 * them before Next reads a byte; TypeScript code imports the same constant (types: limits.d.mts).
 * No imports: safe for the browser, the server and the route handlers alike.
 */

/**
 * The largest request body the console accepts (413 above it, without reading it): the server
 * gate, the JSON API's own reader and server actions' arguments. The largest legitimate body is a
 * resume with 64 KiB of resume data, which arrives as JSON text inside JSON: escaping at most
 * doubles it, so this leaves room for it and little more.
 */
export const MAX_REQUEST_BODY_BYTES = 256 * 1024;
