/**
 * Which load children bench/run.ts starts (bench/run-load.ts): the quick run (CI) exactly the open
 * loop and the token floor on each database, as before the live queue was measured; a full run the
 * live queue besides (bench/live.ts, and the open loop with 1,000 streams held and conditional reads).
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

const started: Array<{ script: string; args: string[] }> = [];
vi.mock("../../bench/children.ts", () => ({
  child: async (script: string, args: string[]) => {
    started.push({ script, args });
    return { script };
  },
}));
const { runLoad } = await import("../../bench/run-load.ts");
const { createResults } = await import("../../bench/cases.ts");

const run = async (quick: boolean, live = true) => {
  const results = createResults({ quick, capMs: 1 });
  await runLoad(results, { quick, live }, () => {});
  return results;
};

beforeEach(() => void (started.length = 0));

describe("the benchmark's load children", () => {
  it("quick (CI): the open loop and the token floor on each database, nothing of the live queue", async () => {
    const results = await run(true);
    expect(started.map(({ script, args }) => `${script} ${args.join(" ")}`)).toEqual([
      "open-loop.ts --db postgres --json --quick",
      "token-floor.ts --db postgres --json --seconds 3",
      "open-loop.ts --db sqlite --json --quick",
      "token-floor.ts --db sqlite --json --seconds 3",
    ]);
    expect(results.live).toBeUndefined();
    expect(results.liveLoad).toBeUndefined();
  });

  it("full: bench:live and the load replaced besides, their answers kept for the report", async () => {
    const results = await run(false);
    expect(started.slice(4).map(({ script, args }) => `${script} ${args.join(" ")}`)).toEqual([
      "live.ts --json",
      "open-loop.ts --db postgres --json --live-streams 1000 --conditional --saturation-seconds 0",
    ]);
    expect(results.live).toEqual({ script: "live.ts" });
    expect(results.liveLoad).toEqual({ script: "open-loop.ts" });
  });

  it("full with --no-live: not the live queue", async () => {
    await run(false, false);
    expect(started.map(({ script }) => script)).not.toContain("live.ts");
    expect(started).toHaveLength(4);
  });
});
