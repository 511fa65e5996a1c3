/** Plain, serialisable shapes of runs for the browser (dates as ISO strings). */
import type { ConsoleRun } from "./list-suspended-runs.ts";
import type { RunDetail } from "./run-detail.ts";

export type RunDto = Omit<ConsoleRun, "suspendedAt"> & { suspendedAt: string };
export type RunDetailDto = Omit<RunDetail, "suspendedAt" | "createdAt"> & { suspendedAt: string; createdAt: string };

export interface RunsPageDto {
  runs: RunDto[];
  total: number;
  /** 1-based. */
  page: number;
  perPage: number;
  pageCount: number;
}

/** A page of the runs table, with the URL parameters the server ignored and why. */
export interface RunsViewDto extends RunsPageDto {
  problems: string[];
}

export function toRunDto(run: ConsoleRun): RunDto {
  return { ...run, suspendedAt: run.suspendedAt.toISOString() };
}

export function toRunDetailDto(run: RunDetail): RunDetailDto {
  return { ...run, suspendedAt: run.suspendedAt.toISOString(), createdAt: run.createdAt.toISOString() };
}
