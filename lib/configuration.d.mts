/** Types of configuration.mjs (plain JavaScript so server.mjs can import it). */
export declare function configurationProblem(env?: Record<string, string | undefined>): string | null;
export declare function authSecretProblem(env?: Record<string, string | undefined>): string | null;
export declare function refuseToStartIfMisconfigured(env?: Record<string, string | undefined>): void;
