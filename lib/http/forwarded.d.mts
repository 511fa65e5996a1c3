/** Types of forwarded.mjs (plain JavaScript so server.mjs can import it). */
import type { BlockList } from "node:net";

export declare const CLIENT_ADDRESS_HEADER: "x-approvals-client-ip";
export declare const UNKNOWN_CLIENT_ADDRESS: "unknown";
export declare function parseTrustedProxies(value?: string): BlockList;
export declare function clientAddressOf(
  remoteAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: BlockList,
): string;
export declare function normalizeAddress(value: unknown): string | null;
export declare function markClientAddressesStamped(): void;
export declare function clientAddressesStamped(): boolean;
