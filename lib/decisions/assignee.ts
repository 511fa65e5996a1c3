/**
 * The assignment check decide() makes before recording (lib/assignments): whose call it is goes
 * into the audit entry, and a reviewer who is not the assignee of a call whose agent lets only the
 * assignee decide is refused, told who holds it.
 */
import { assigneeOf, findAssignees } from "../assignments/assignments.ts";
import { exclusiveAgents } from "../assignments/review-settings.ts";
import type { Db } from "../db/client.ts";
import { DecisionError } from "./types.ts";

/** Whom the call is assigned to (undefined: nobody), after refusing anyone else where only the assignee decides. */
export async function checkAssignee(
  db: Db,
  call: { runId: string; toolCallId: string; threadId?: string | null; agentId: string },
  reviewerEmail: string,
): Promise<string | undefined> {
  const assignee = assigneeOf(await findAssignees(db, [call]), call.runId, call.toolCallId);
  if (!assignee || assignee.email === reviewerEmail) return assignee?.email;
  if ((await exclusiveAgents(db, [call.agentId])).has(call.agentId)) {
    throw new DecisionError(
      "not_assignee",
      `Only ${assignee.email} may decide this call: it is assigned to them, and agent "${call.agentId}" lets only the assignee decide. Ask them, or an admin to reassign it.`,
    );
  }
  return assignee.email;
}
