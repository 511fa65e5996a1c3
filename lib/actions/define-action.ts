/**
 * The one way a server action opens (in the shape of dub's `authActionClient.schema(...).action(...)`):
 * the caller's permission, then the input against its zod schema, then the body, whose failures
 * come back as an ActionError (lib/actions/result.ts) instead of an exception. A verb-noun action
 * file is one call to this; nothing about access or validation is written by hand per action.
 * The decision actions open through run-decision.ts, which adds the refusal budget and auditing.
 * The input is `unknown` on purpose: whatever the browser sends, only the schema decides.
 * An action the JSON API also offers is defined as an Operation (operation.ts) and opened with actionOf.
 */
import type { z } from "zod";
import type { Permission } from "../auth/roles.ts";
import type { Actor } from "../auth/session.ts";
import { authorize } from "./authorize.ts";
import { runOperation, type Operation } from "./operation.ts";
import type { ActionResult } from "./result.ts";

export function defineAction<Schema extends z.ZodType, Output>(
  name: string,
  { permission, input, lenientText }: { permission: Permission; input: Schema; lenientText?: boolean },
  body: (input: z.output<Schema>, context: { actor: Actor }) => Promise<Output>,
): (raw: unknown) => Promise<ActionResult<Output>> {
  return actionOf({ name, permission, input, lenientText, run: body });
}

/** The server action of an operation the JSON API shares. */
export function actionOf<Schema extends z.ZodType, Output>(
  operation: Operation<Schema, Output>,
): (raw: unknown) => Promise<ActionResult<Output>> {
  return async (raw) => {
    const access = await authorize(operation.permission);
    if (!access.ok) return { ok: false, error: access.error };
    return runOperation(operation, access.actor, raw);
  };
}
