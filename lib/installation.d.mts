/** Types of installation.mjs (plain JavaScript so server.mjs and package scripts can run it before anything else). */
export declare const SERVER_PACKAGES: string[];
export declare const SCRIPT_PACKAGES: string[];
export declare function installationProblem(packages?: string[]): string | null;
