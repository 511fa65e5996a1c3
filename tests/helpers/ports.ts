/**
 * A port nobody listens on right now, from `candidates` in turn: test servers are started on fixed
 * ranges (several helpers, other worktrees' suites), and a taken port would fail a start.
 */
import net from "node:net";

export async function freePort(candidates: Iterator<number>): Promise<number> {
  for (let next = candidates.next(); !next.done; next = candidates.next()) {
    if (await isFree(next.value)) return next.value;
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
 * of them is up but can never be reached, e.g. 3659 in the console servers' range.
 */
const FETCH_BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
  989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Ports from `first` up to `last`, starting at a random one (so parallel suites spread out), wrapping round. */
export function* portRange(first: number, last: number): Iterator<number> {
  const size = last - first + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = first + ((start + i) % size);
    if (!FETCH_BAD_PORTS.has(port)) yield port;
  }
}
