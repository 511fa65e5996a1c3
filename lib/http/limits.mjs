/**
 * Request size limits, in plain JavaScript because server.mjs (run by Node, not bundled) enforces
 * them before Next reads a byte; TypeScript code imports the same constant (types: limits.d.mts).
 * No imports: safe for the browser, the server and the route handlers alike.
 */

/** The largest request body the console accepts (413 above it, without reading it). */
export const MAX_REQUEST_BODY_BYTES = 256 * 1024;
