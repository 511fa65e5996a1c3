/** Types of limits.mjs (plain JavaScript so server.mjs can import it). */
export declare const MAX_REQUEST_BODY_BYTES: number;
