/**
 * One instance per key for the whole process (database clients, the Mastra instance, auth), created
 * on first use. Kept on globalThis so Next's dev reloads and its several server bundles share it;
 * a creation that fails is forgotten, so the next call tries again.
 */
export function processCache<T>(name: string, create: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const holder = globalThis as unknown as Record<string, Map<string, Promise<T>> | undefined>;
  const entries = (holder[`__approvalsConsole:${name}`] ??= new Map<string, Promise<T>>());
  return (key) => {
    let entry = entries.get(key);
    if (!entry) {
      entry = create(key);
      entries.set(key, entry);
      entry.catch(() => entries.delete(key));
    }
    return entry;
  };
}

/** Drops `key` from a cache made by processCache (for clients that were closed). */
export function forgetCached(name: string, key: string): Promise<unknown> | undefined {
  const entries = (globalThis as unknown as Record<string, Map<string, Promise<unknown>> | undefined>)[`__approvalsConsole:${name}`];
  const entry = entries?.get(key);
  entries?.delete(key);
  return entry;
}
