// Prisma's schema engine compiled to WebAssembly, for machines where the Prisma CLI cannot download
// its native engine. The package entry imports the `.wasm` file as an ES module, which Node cannot do,
// so we instantiate the binary ourselves against the package's wasm-bindgen glue module.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import * as glue from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";
import type { ErrorCapturingSqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";

export type * from "@prisma/schema-engine-wasm";

// The glue module keeps one module-level wasm instance, so it must be instantiated exactly once.
let ready: Promise<typeof glue> | undefined;

function loadGlue(): Promise<typeof glue> {
  ready ??= (async () => {
    const require = createRequire(import.meta.url);
    const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const bytes = await readFile(path.join(path.dirname(gluePath), "schema_engine_bg.wasm"));
    // wasm-bindgen names its import module after the glue file.
    const instance = await WebAssembly.instantiate(await WebAssembly.compile(new Uint8Array(bytes)), {
      "./schema_engine_bg.js": glue as unknown as WebAssembly.ModuleImports,
    });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })();
  return ready;
}

/**
 * Starts a schema engine that talks to the database through `adapterFactory`
 * (wrap the adapter with `bindMigrationAwareSqlAdapterFactory`).
 * `schemaFiles` are the Prisma schema files the engine works from.
 */
export async function startSchemaEngine(
  adapterFactory: ErrorCapturingSqlMigrationAwareDriverAdapterFactory,
  schemaFiles: { path: string; content: string }[],
  log: (message: string) => void = () => {},
): Promise<SchemaEngine> {
  const { SchemaEngine } = await loadGlue();
  return SchemaEngine.new({ datamodels: schemaFiles.map((file): [string, string] => [file.path, file.content]) }, log, adapterFactory);
}
