/**
 * A port nobody listens on right now, from `candidates` in turn: test servers are started on fixed
 * ranges (several helpers, other worktrees' suites), and a taken port would fail a start.
 */
import net from "node:net";

/**
 * Each kind of test server's range, none overlapping another's (files running at once start
 * different kinds). Playwright's servers use fixed ports of their own (e2e/support/env.ts).
 */
export const PORT_RANGES = {
  consoleServer: [3200, 3299],
  mastraServer: [3300, 3399],
  benchMastraServer: [3400, 3499],
  webhookReceiver: [3500, 3599],
  packedConsoleServer: [3600, 3699],
  oidcProvider: [3700, 3719],
  slackStandIn: [3720, 3799],
} as const satisfies Record<string, readonly [number, number]>;

export async function freePort(range: PortRange): Promise<number> {
  for (let tried = 0; tried < range.size; tried++) {
    const port = range.next();
    if (await isFree(port)) return port;
  }
  throw new Error("No free port left in the range");
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/**
 * Ports fetch() refuses to connect to ("bad port", the Fetch standard's list): a test server on one
 * of them is up but can never be reached, e.g. 3659 in the packed console's range.
 */
const FETCH_BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
  989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/**
 * Files that run at once (vitest.config.ts) each take ports from their own band of a range: a port
 * probed free can stay free for seconds until the server started on it listens, long enough for
 * another file's probe to find it free too. Up to this many workers get bands of their own.
 */
const WORKER_BANDS = 4;

/** Ports to start test servers on, offered one after the other, round and round. */
export interface PortRange {
  readonly size: number;
  next(): number;
}

/**
 * Ports from `first` up to `last` (in a vitest worker, its band of them), starting at a random one
 * (so parallel suites spread out) and going round for ever: servers a file starts one after the
 * other, or at once, are offered different ports, and a long file never runs out of them.
 */
export function portRange(first: number, last: number): PortRange {
  const [low, high] = workerBand(first, last);
  const ports = Array.from({ length: high - low + 1 }, (_, i) => low + i).filter((port) => !FETCH_BAD_PORTS.has(port));
  let cursor = Math.floor(Math.random() * ports.length);
  return { size: ports.length, next: () => ports[cursor++ % ports.length]! };
}

function workerBand(first: number, last: number): [number, number] {
  const worker = Number(process.env.VITEST_POOL_ID);
  const size = Math.floor((last - first + 1) / WORKER_BANDS);
  if (!Number.isInteger(worker) || worker < 1 || size < 1) return [first, last];
  const low = first + ((worker - 1) % WORKER_BANDS) * size;
  return [low, low + size - 1];
}
