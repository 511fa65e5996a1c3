/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile>...`: where a server's CPU went, from profiles
 * written by bench/cpu-profile.cjs (bench/open-loop.ts --profile <dir>). Prints the share of
 * samples whose stack passes through each concern (a sample can count for several: the session
 * lookup runs Prisma), the code that used the CPU itself by package or chunk, and the hottest functions.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
// A dependency of Vite and Next's toolchain already installed: reads Turbopack's sectioned source maps.
import { AnyMap, originalPositionFor, type TraceMap } from "@jridgewell/trace-mapping";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Concerns, by the source a frame comes from: the production build's chunks are minified, so a frame
 * is mapped back through the chunk's source map to the file it was compiled from.
 */
const CONCERNS: Array<[string, (source: string, frame: Node["callFrame"]) => boolean]> = [
  ["session lookup (lib/auth/session.ts, better-auth)", (source) => /lib\/auth\/session|better-auth/.test(source)],
  ["queue query (lib/queue, lib/runs/list-threads)", (source) => /lib\/queue\/|list-threads/.test(source)],
  ["run page data (lib/runs, lib/context)", (source) => /lib\/runs\/(?!list-threads)|lib\/context/.test(source)],
  ["Prisma (client, query compiler, adapters)", (source) => /prisma/i.test(source)],
  ["pg driver", (source) => /node_modules\/pg(-[a-z]+)?\//.test(source)],
  [
    "Next's app-page runtime (React rendering, RSC, routing)",
    (source) => /next\/dist\/compiled\/next-server|react-dom|react-server-dom/.test(source),
  ],
  ["our components (components/, app/)", (source) => /(^|\/)(components|app)\/.+\.tsx$/.test(source)],
  ["Mastra", (source) => /@mastra/.test(source)],
  ["garbage collection", (_, frame) => frame.functionName === "(garbage collector)"],
];

const maps = new Map<string, TraceMap | null>();
/** The file a frame's code was compiled from (its chunk's source map), else its own URL. */
function sourceOf(frame: Node["callFrame"]): string {
  if (!frame.url.startsWith("file://") || !frame.url.endsWith(".js")) return frame.url;
  const file = fileURLToPath(frame.url);
  if (!maps.has(file)) {
    maps.set(file, existsSync(`${file}.map`) ? new AnyMap(readFileSync(`${file}.map`, "utf8")) : null);
  }
  const map = maps.get(file);
  if (!map) return frame.url;
  const original = originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber });
  return original.source ? `${original.source.replace(/^(\.\.\/)+/, "")}` : frame.url;
}

function origin(url: string): string {
  if (!url) return "(native / V8)";
  if (url.startsWith("node:")) return "node internals";
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (!url.startsWith("file://") && url.includes("/")) return path.dirname(url); // a source of ours: its folder
  return path.basename(url).replace(/_[0-9a-z-]{10,}\._?\.js$|\.js$/, "");
}

const concern: Record<string, number> = {};
const selfBy: Record<string, number> = {};
const hot: Record<string, number> = {};
let total = 0;
let idle = 0;
for (const file of process.argv.slice(2)) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const sources = new Map(profile.nodes.map((n) => [n.id, sourceOf(n.callFrame)]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const self = byId.get(id)!;
    if (self.callFrame.functionName === "(idle)") return void (idle += dt);
    total += dt;
    selfBy[origin(sources.get(id)!)] = (selfBy[origin(sources.get(id)!)] ?? 0) + dt;
    const key = `${self.callFrame.functionName || "(anonymous)"} ${sources.get(id)!.replace(/^.*node_modules\//, "")}`;
    hot[key] = (hot[key] ?? 0) + dt;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      for (const [name, matches] of CONCERNS) if (!seen.has(name) && matches(sources.get(at)!, frame)) seen.add(name);
    }
    for (const name of seen) concern[name] = (concern[name] ?? 0) + dt;
  });
}
const share = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1e6).toFixed(1).padStart(6)} s`;
const top = (record: Record<string, number>, n: number) =>
  Object.entries(record)
    .sort((a, b) => b[1] - a[1])
    .slice(0, n);
console.log(
  `${(total / 1e6).toFixed(1)} s busy (${(idle / 1e6).toFixed(1)} s idle left out) in ${process.argv.length - 2} profile(s)\n\nconcerns (a sample counts for every concern on its stack):`,
);
for (const [name] of CONCERNS) console.log(`  ${share(concern[name] ?? 0)}  ${name}`);
console.log("\nself time by package or chunk:");
for (const [name, us] of top(selfBy, 20)) console.log(`  ${share(us)}  ${name}`);
console.log("\nhottest functions (self):");
for (const [name, us] of top(hot, 25)) console.log(`  ${share(us)}  ${name}`);
