/** Types of numeric-settings.mjs (plain JavaScript so server.mjs can import it). */
export interface NumericSettingDefinition {
  readonly min: number;
  readonly max: number;
  readonly default: number;
  /** What the number counts, as the table in docs/settings.md and the refusal say it. */
  readonly unit: string;
}
export declare const MINUTES_PER_YEAR: number;
export declare const NUMERIC_SETTINGS: Readonly<
  Record<
    | "REVIEW_SLA_MINUTES"
    | "SUGGESTION_WINDOW_MINUTES"
    | "REVIEW_TARGET_CRITICAL_MINUTES"
    | "REVIEW_TARGET_HIGH_MINUTES"
    | "REVIEW_TARGET_MEDIUM_MINUTES"
    | "REVIEW_TARGET_LOW_MINUTES"
    | "REFUSALS_PER_MINUTE"
    | "ANONYMOUS_REFUSALS_PER_MINUTE"
    | "AUTH_SIGN_IN_ATTEMPTS_PER_MINUTE"
    | "BULK_CONCURRENCY"
    | "WEBHOOKS_POLL_MS"
    | "DECISION_LEASE_MS"
    | "MASTRA_SERVER_TIMEOUT_MS"
    | "PORT"
    | "MAX_CONCURRENT_REQUESTS"
    | "MAX_QUEUED_REQUESTS"
    | "REQUEST_QUEUE_TIMEOUT_MS"
    | "DATABASE_WAIT_SECONDS"
    | "AUDIT_CHECKPOINT_MINUTES"
    | "LIVE_FEED_KEEP_MINUTES"
    | "LIVE_FEED_KEEP_ROWS"
    | "LIVE_POLL_MS"
    | "LIVE_HEARTBEAT_MS"
    | "LIVE_STREAMS_PER_INSTANCE"
    | "LIVE_STREAMS_PER_USER"
    | "LIVE_PRESENCE_CALLS_PER_USER",
    NumericSettingDefinition
  >
>;
export type NumericSettingName = keyof typeof NUMERIC_SETTINGS;
type Env = Record<string, string | undefined>;
export declare function wholeNumberOf(value: unknown): number | undefined;
export declare function numericSettingProblem(name: NumericSettingName, env?: Env, label?: string): string | null;
export declare function numericSettingsProblem(env?: Env): string | null;
export declare function numericSetting(name: NumericSettingName, env?: Env): number;
