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

/** Ports from `first` up to `last`, starting at a random one (so parallel suites spread out), wrapping round. */
export function* portRange(first: number, last: number): Iterator<number> {
  const size = last - first + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) yield first + ((start + i) % size);
}
