/**
 * The calls this tab is sending a decision for right now (a bulk decision: its rows need not be
 * open). The live queue leaves them in place (settling-calls.ts): the table keeps each one on screen
 * with what became of it once the answer is back (use-lingering.ts), which it cannot do for a row
 * the stream's word about this very decision already took away.
 */
const sending = new Map<string, number>();

/** Marks the rows as being sent from here; returns the unmarking, for once the answer is handled. */
export function sendingFromHere(rowIds: string[]): () => void {
  for (const id of rowIds) sending.set(id, (sending.get(id) ?? 0) + 1);
  return () => {
    for (const id of rowIds) {
      const count = (sending.get(id) ?? 1) - 1;
      if (count <= 0) sending.delete(id);
      else sending.set(id, count);
    }
  };
}

export function isSendingFromHere(rowId: string): boolean {
  return sending.has(rowId);
}
