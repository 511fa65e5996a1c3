/** Timing helpers and a killable child-process runner for Mastra's calls. */
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { BENCH_DIR } from "./backlog.ts";

export interface Stats {
  n: number;
  median: number;
  p95: number;
  min: number;
}

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const mid = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { n: sorted.length, median, p95: at(0.95), min: sorted[0]! };
}

/** Warm-up, then samples until `maxSamples` or `budgetMs` (at least `minSamples`). */
export async function measure<T>(
  fn: () => Promise<T>,
  { warmup = 10, minSamples = 20, maxSamples = 200, budgetMs = 3_000 } = {},
): Promise<{ stats: Stats; last: T }> {
  let last!: T;
  for (let i = 0; i < warmup; i++) last = await fn();
  const samples: number[] = [];
  const started = performance.now();
  while (samples.length < maxSamples && (samples.length < minSamples || performance.now() - started < budgetMs)) {
    const t = performance.now();
    last = await fn();
    samples.push(performance.now() - t);
  }
  return { stats: stats(samples), last };
}

export type WorkerReply =
  { ms: number; total: number; runs: number; rssMb: number } | { error: string } | { timedOut: true; capMs: number };

/** One child process running Mastra; a call past the cap kills it (the next call starts a new one). */
export class MastraWorker {
  #child: ChildProcess | undefined;
  #ready: Promise<void> | undefined;
  #next = 1;

  #spawn(): Promise<void> {
    const child = fork(path.join(BENCH_DIR, "mastra-worker.ts"), [], {
      execArgv: ["--import", "tsx", "--max-old-space-size=4096"],
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    child.stderr?.on("data", () => undefined);
    this.#child = child;
    this.#ready = new Promise((resolve, reject) => {
      child.once("message", () => resolve());
      child.once("exit", (code) => reject(new Error(`Mastra worker exited (${code})`)));
    });
    return this.#ready;
  }

  async call(
    request: { store: "libsql" | "pg"; url: string; agent: "refunds"; options: Record<string, unknown> },
    capMs: number,
  ): Promise<WorkerReply> {
    if (!this.#child) await this.#spawn();
    else await this.#ready;
    const child = this.#child!;
    const id = this.#next++;
    return new Promise<WorkerReply>((resolve) => {
      const timer = setTimeout(() => {
        child.off("message", onMessage);
        this.kill();
        resolve({ timedOut: true, capMs });
      }, capMs);
      const onMessage = (message: { id?: number } & WorkerReply) => {
        if (message.id !== id) return;
        clearTimeout(timer);
        child.off("message", onMessage);
        resolve(message);
      };
      child.on("message", onMessage);
      child.send({ id, ...request });
    });
  }

  kill(): void {
    if (this.#child && this.#child.exitCode === null) this.#child.kill("SIGKILL");
    this.#child = undefined;
    this.#ready = undefined;
  }
}
