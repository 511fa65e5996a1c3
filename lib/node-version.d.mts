/** Types of node-version.mjs (plain JavaScript so package scripts can run it before installing). */
export declare const MINIMUM_NODE: string;
export declare const TESTED_NODE: string;
export declare const GET_TESTED_NODE: string;
export declare function nodeVersionProblem(version?: string): string | null;
