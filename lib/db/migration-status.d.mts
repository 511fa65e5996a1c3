/** Types of migration-status.mjs (plain JavaScript so server.mjs can import it). */
export interface MigrationProblem {
  kind: "unreachable" | "store" | "console";
  /** Names the command that fixes it and the database (password masked). */
  message: string;
  /** The same without the database's address. */
  summary: string;
  /** For `unreachable`: what the driver said. */
  detail?: string;
  /** For `unreachable`: whether the database may answer later (not up yet, busy), or never will as asked. */
  transient?: boolean;
}
export declare function databaseLabel(databaseUrl: string): string;
export declare function migrationProblem(databaseUrl: string, projectRoot?: string): Promise<MigrationProblem | null>;
export declare const DEFAULT_DATABASE_URL: string;
