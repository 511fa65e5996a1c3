/** Types of request-url.mjs (plain JavaScript so server.mjs can import it). */
export declare function answersWithJson(pathname: string): boolean;
export declare function malformedUrlProblem(url: string): string | null;
export declare function withDecodablePath(url: string): string;
