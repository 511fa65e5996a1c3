/**
 * How many live streams one instance holds, in all and per user (LIVE_STREAMS_PER_INSTANCE,
 * LIVE_STREAMS_PER_USER): one more is refused before it subscribes or reads anything, so a user who
 * opens thousands of streams takes a bounded share of the instance and no more.
 */
import type { ErrorCode } from "../errors.ts";
import { numericSetting } from "../numeric-settings.mjs";

interface Counts {
  total: number;
  perUser: Map<string, number>;
}

function counts(): Counts {
  const holder = globalThis as unknown as { __approvalsConsoleLiveStreams?: Counts };
  return (holder.__approvalsConsoleLiveStreams ??= { total: 0, perUser: new Map() });
}

/** A place for one more stream of `userId`, with its release; or the refusal to answer. */
export function takeStreamPlace(
  userId: string,
): { ok: true; release: () => void } | { ok: false; error: { code: ErrorCode; message: string } } {
  const open = counts();
  const perInstance = numericSetting("LIVE_STREAMS_PER_INSTANCE");
  const perUser = numericSetting("LIVE_STREAMS_PER_USER");
  const mine = open.perUser.get(userId) ?? 0;
  if (mine >= perUser) {
    return {
      ok: false,
      error: {
        code: "rate_limited",
        message: `You have ${mine} live streams open on this server, the most one user may (LIVE_STREAMS_PER_USER): close some tabs.`,
      },
    };
  }
  if (open.total >= perInstance) {
    return {
      ok: false,
      error: {
        code: "server_busy",
        message: `This server holds ${open.total} live streams, its most (LIVE_STREAMS_PER_INSTANCE): try again later.`,
      },
    };
  }
  open.total++;
  open.perUser.set(userId, mine + 1);
  let released = false;
  return {
    ok: true,
    release: () => {
      if (released) return;
      released = true;
      open.total--;
      const left = (open.perUser.get(userId) ?? 1) - 1;
      if (left > 0) open.perUser.set(userId, left);
      else open.perUser.delete(userId);
    },
  };
}
