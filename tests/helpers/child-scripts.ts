/**
 * The TypeScript entry points the tests run as processes of their own (a console killed
 * mid-decision, a writer killed after its snapshot, the example Mastra server), and how to start one.
 *
 * Under tsx a child spends about 4 s of CPU compiling our TypeScript and the generated Prisma
 * clients before it does anything; the crash tests start over a hundred. So vitest's global setup
 * (tests/global-setup.ts) compiles them all once per run with Vite, the same source into plain
 * JavaScript, dependencies left in node_modules, and a child starts from that in about a third of
 * the time. Outside vitest (the Playwright fixtures, a script run by hand) they run under tsx.
 * Node also keeps the compiled bytecode of what they load on disk (NODE_COMPILE_CACHE), so every
 * child after the first of its kind skips compiling Mastra, Prisma and the rest: 1.44 -> 1.17 s a
 * start here.
 */
import { existsSync } from "node:fs";
import path from "node:path";

export const CHILD_SCRIPTS = {
  "decide-in-child": "tests/helpers/decide-in-child.ts",
  "suspend-in-child": "tests/helpers/suspend-in-child.ts",
  "gc-child": "tests/helpers/gc-child.ts",
  "mastra-server": "examples/mastra-server/server.ts",
} as const;

export type ChildScript = keyof typeof CHILD_SCRIPTS;

/**
 * Two levels below the project root, like lib/db/: the compiled code finds the repository (its
 * migrations, the schema engine) from its own location as the source does (lib/db/prisma-paths.ts).
 */
export const COMPILED_CHILDREN_DIR = path.resolve("tests/.compiled");
/** Set by the global setup once the children are compiled for this run. */
const COMPILED_FLAG = "TEST_CHILDREN_COMPILED";

/** node's arguments (before the script's own) that run `script`: compiled when this run compiled it, else under tsx. */
export function childCommand(script: ChildScript): string[] {
  const compiled = path.join(COMPILED_CHILDREN_DIR, `${script}.mjs`);
  if (process.env[COMPILED_FLAG] && existsSync(compiled)) return [compiled];
  return ["--import", "tsx", path.resolve(CHILD_SCRIPTS[script])];
}

/** Compiles every child script into COMPILED_CHILDREN_DIR (one Vite SSR build) and tells this process's children. */
export async function compileChildScripts(): Promise<void> {
  const { build } = await import("vite");
  // Vite's build sets NODE_ENV=production in the calling process, which the test processes would inherit.
  const env = process.env as Record<string, string | undefined>;
  const nodeEnv = env.NODE_ENV;
  try {
    await build({
      configFile: false,
      logLevel: "error",
      resolve: { alias: [{ find: /^@\//, replacement: `${path.resolve(".")}/` }] },
      // Dependencies stay in node_modules, found from tests/.compiled by node's usual lookup. The
      // store package too, though linked from packages/: it finds its migrations next to itself.
      ssr: { external: ["@agent-approvals/mastra-store"] },
      build: {
        ssr: true,
        outDir: COMPILED_CHILDREN_DIR,
        emptyOutDir: true,
        target: "node22",
        minify: false,
        rollupOptions: {
          input: Object.fromEntries(Object.entries(CHILD_SCRIPTS).map(([name, file]) => [name, path.resolve(file)])),
          output: { format: "es", entryFileNames: "[name].mjs", chunkFileNames: "[name]-[hash].mjs" },
        },
      },
    });
  } finally {
    if (nodeEnv === undefined) delete env.NODE_ENV;
    else env.NODE_ENV = nodeEnv;
  }
  process.env[COMPILED_FLAG] = "1";
  process.env.NODE_COMPILE_CACHE ??= path.join(COMPILED_CHILDREN_DIR, ".node-compile-cache");
}
