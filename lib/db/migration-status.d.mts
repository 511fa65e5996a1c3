/** Types of migration-status.mjs (plain JavaScript so server.mjs can import it). */
export interface MigrationProblem {
  kind: "unreachable" | "store" | "console";
  /** Names the command that fixes it and the database (password masked). */
  message: string;
  /** The same without the database's address. */
  summary: string;
  /** For `unreachable`: what the driver said. */
  detail?: string;
}
export declare function migrationProblem(databaseUrl: string, projectRoot?: string): Promise<MigrationProblem | null>;
export declare const DEFAULT_DATABASE_URL: string;
