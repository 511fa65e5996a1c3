/**
 * What every server action returns: data, or an error the UI can show. Errors never leave an action
 * as exceptions, so the client sees a message it can render instead of a generic failure.
 */
import { z } from "zod";
import { AppError, type ClientErrorCode, type ErrorCode } from "../errors.ts";
import { humanizeIssues } from "../decisions/issue-english.ts";
import { issuesSentence, type HumanIssue } from "../decisions/issues.ts";
import { DecisionError, type PriorDecision } from "../decisions/types.ts";
import { unstorableTextIn } from "../safe-text.ts";

export interface ActionError {
  code: ErrorCode;
  message: string;
  /** Each problem as a sentence, and as catalog words the UI says in the reader's language. */
  issues?: HumanIssue[];
  /** With `already_decided`: who decided the call first, what and when. */
  priorDecision?: PriorDecision;
  /** With `rate_limited`: when the client may try again. */
  retryAfterSeconds?: number;
}

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ActionError };

/** What the browser may hold: an action's error, or its own when the server could not be reached. */
export type ClientActionError = Omit<ActionError, "code"> & { code: ClientErrorCode };

export function invalidInput(error: z.ZodError): { ok: false; error: ActionError } {
  // Every problem in words (issues.ts), as the browser words them: "unknown field: foo", "… is required".
  const issues = humanizeIssues(error.issues);
  return { ok: false, error: { code: "invalid_input", message: issuesSentence(issues), issues } };
}

/**
 * `raw` checked against its schema, then for text no database stores as sent (a NUL, a lone UTF-16
 * surrogate) anywhere in what was sent or in what the schema made of it (JSON text it parsed:
 * resume data, suggested arguments), by lib/safe-text.ts: how every route and server action reads
 * its input, so a field no schema thought to check is refused all the same (`400 invalid_input`).
 * The schema speaks first: its own wording of a problem ("Agent contains a NUL…") wins.
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  raw: unknown,
): { ok: true; data: z.output<Schema> } | { ok: false; error: ActionError } {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return invalidInput(parsed.error);
  const unstorable = unstorableTextIn(raw) ?? unstorableTextIn(parsed.data);
  if (unstorable) return { ok: false, error: { code: "invalid_input", message: unstorable.message, issues: [unstorable] } };
  return { ok: true, data: parsed.data };
}

/** Runs an action body and turns every failure into an ActionError. */
export async function runAction<T>(name: string, body: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await body() };
  } catch (error) {
    if (error instanceof DecisionError) {
      return {
        ok: false,
        error: { code: error.code, message: error.message, issues: error.issues, priorDecision: error.priorDecision },
      };
    }
    if (error instanceof AppError) return { ok: false, error: { code: error.code, message: error.message } };
    if (error instanceof z.ZodError) return invalidInput(error);
    console.error(`[action ${name}]`, error);
    return {
      ok: false,
      error: { code: "internal", message: "The server could not complete this request. Try again; if it persists, check the server log." },
    };
  }
}
