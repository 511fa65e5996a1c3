/**
 * JSON for snapshots as Mastra's own stores write them: BigInts become strings, functions and
 * symbols vanish, and a circular reference is dropped instead of failing the whole write.
 */
export function serializeSnapshot(value: unknown): string {
  try {
    // The common case, at full speed; BigInts and cycles make JSON.stringify throw.
    return JSON.stringify(value);
  } catch {
    return serializeLeniently(value);
  }
}

function serializeLeniently(value: unknown): string {
  const ancestors: unknown[] = [];
  return JSON.stringify(value, function (this: unknown, _key, current: unknown) {
    if (typeof current === "bigint") return current.toString();
    if (typeof current !== "object" || current === null) return current;
    // `this` is the object holding `current`: unwind to it, so `ancestors` is the path from the root.
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(current)) return undefined;
    ancestors.push(current);
    return current;
  });
}
