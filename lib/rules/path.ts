/**
 * Paths into a call's arguments: `amount`, `customer.id`, `items[0].sku`. A key is a name of
 * letters, digits, `_`, `$` or `-` (not starting with a digit or `-`); `[n]` indexes an array.
 * Browser-safe and pure: the rule form checks a path with the same code the server runs.
 */
const KEY = "[A-Za-z_$][A-Za-z0-9_$-]*";
export const PATH_PATTERN = new RegExp(`^${KEY}(?:\\.${KEY}|\\[\\d{1,6}\\])*$`);
/** One key a path can name on its own (a key with other characters cannot be reached by a path). */
export const KEY_PATTERN = new RegExp(`^${KEY}$`);
export const MAX_PATH_CHARS = 200;

export type PathStep = string | number;

/** The steps of a valid path, or null when it is not one. */
export function parsePath(path: string): PathStep[] | null {
  if (path.length > MAX_PATH_CHARS || !PATH_PATTERN.test(path)) return null;
  const steps: PathStep[] = [];
  for (const part of path.matchAll(/([A-Za-z_$][A-Za-z0-9_$-]*)|\[(\d+)\]/g)) {
    steps.push(part[1] !== undefined ? part[1] : Number(part[2]));
  }
  return steps;
}

/** The value at `steps` in `args`; undefined when any step is missing (or indexes a non-array). */
export function valueAt(args: unknown, steps: readonly PathStep[]): unknown {
  let current: unknown = args;
  for (const step of steps) {
    if (typeof step === "number") {
      if (!Array.isArray(current) || step >= current.length) return undefined;
      current = current[step];
    } else {
      if (current === null || typeof current !== "object" || Array.isArray(current) || !Object.hasOwn(current, step)) return undefined;
      current = (current as Record<string, unknown>)[step];
    }
  }
  return current;
}
