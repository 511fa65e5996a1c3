/**
 * A preload (`--require bench/cpu-profile.cjs`, e.g. through bench/open-loop.ts --profile <dir>) that
 * samples the process's CPU from its start and writes <dir>/<pid>.cpuprofile when it is told to stop
 * (SIGTERM, as the benchmarks stop their servers). Node's own --cpu-prof writes only on a normal exit,
 * which a server stopped by a signal never reaches. Read it with bench/profile-summary.ts or Chrome's
 * DevTools.
 */
const inspector = require("node:inspector");
const { mkdirSync, writeFileSync } = require("node:fs");
const path = require("node:path");

const dir = process.env.CPU_PROFILE_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable", () =>
    session.post("Profiler.setSamplingInterval", { interval: 500 }, () => session.post("Profiler.start")),
  );
  process.once("SIGTERM", () => {
    session.post("Profiler.stop", (error, result) => {
      if (!error) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
      }
      process.exit(0);
    });
  });
}
