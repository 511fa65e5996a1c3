/**
 * The benchmark's child processes: each measurement that needs its own process (and its own RSS)
 * runs a script of bench/ and answers with one JSON line on stdout.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { BENCH_DIR } from "./backlog.ts";

/**
 * A child that runs `script` under tsx, or (`compiled`) as JavaScript bundled by Vite first and run
 * by plain node, the way a production server runs our code: tsx's on-the-fly compiler alone adds
 * ~30 MB to a process's RSS, which would count against the memory target.
 */
export async function child(
  script: string,
  childArgs: string[],
  env: Record<string, string> = {},
  timeoutMs = 600_000,
  { compiled = false } = {},
): Promise<unknown> {
  const command = compiled ? [await compileChild(script)] : ["--import", "tsx", path.join(BENCH_DIR, script)];
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [...command, ...childArgs], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout.on("data", (chunk) => (out += chunk));
    const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
    proc.on("exit", (code) => {
      clearTimeout(timer);
      const line = out
        .trim()
        .split("\n")
        .reverse()
        .find((l) => l.startsWith("{"));
      try {
        resolve(line ? JSON.parse(line) : { error: `exit ${code}`, output: out.slice(-2000) });
      } catch {
        resolve({ error: `exit ${code}`, output: out.slice(-2000) });
      }
    });
  });
}

async function compileChild(script: string): Promise<string> {
  const { build } = await import("vite");
  const outDir = path.join(BENCH_DIR, "out", "compiled", path.basename(script, ".ts"));
  // Vite's build sets NODE_ENV=production in the calling process, which every later child would
  // inherit (the page check's account setup then demands a production auth secret).
  const env = process.env as Record<string, string | undefined>;
  const nodeEnv = env.NODE_ENV;
  await build({
    configFile: false,
    logLevel: "error",
    // Dependencies stay in node_modules (found from bench/out by node's usual lookup); only our
    // TypeScript is compiled.
    build: { ssr: path.join(BENCH_DIR, script), outDir, emptyOutDir: true, target: "node20", minify: false },
  });
  if (nodeEnv === undefined) delete env.NODE_ENV;
  else env.NODE_ENV = nodeEnv;
  return path.join(outDir, `${path.basename(script, ".ts")}.js`);
}

/**
 * A child's stores (`<database url>… [--quick]`): a child measures every store of a run one after
 * another, in one process, rather than paying the start of a process (our code under tsx, seconds
 * of CPU) per store.
 */
export function storeArgs(script: string): { urls: string[]; quick: boolean } {
  const args = process.argv.slice(2);
  const urls = args.filter((arg) => arg !== "--quick");
  if (urls.length === 0) throw new Error(`usage: ${script} <database url>… [--quick]`);
  return { urls, quick: args.includes("--quick") };
}

/** `measure` on each store in turn, answers keyed by URL. */
export async function eachStore<T>(urls: string[], measure: (url: string) => Promise<T>): Promise<Record<string, T>> {
  const results: Record<string, T> = {};
  for (const url of urls) results[url] = await measure(url);
  return results;
}
