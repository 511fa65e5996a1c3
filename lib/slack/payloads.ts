/**
 * What Slack posts, checked with zod before anything is done with it: an interaction (a button
 * click, `block_actions`, or the decline modal's `view_submission`) as the form field `payload`,
 * and a slash command as plain form fields. Only the fields the console uses are kept.
 */
import { z } from "zod";
import { LOCALES } from "../i18n/locales.ts";
import { idSchema } from "../ids.ts";

const slackId = z.string().trim().min(1).max(64);
const user = z.object({ id: slackId, team_id: slackId.optional() });
const team = z.object({ id: slackId }).nullish();

export const blockActionsPayload = z.object({
  type: z.literal("block_actions"),
  user,
  team,
  trigger_id: z.string().max(256),
  response_url: z.string().url().max(2048),
  actions: z
    .array(z.object({ action_id: z.string().max(255), value: z.string().max(2000).optional() }))
    .min(1)
    .max(5),
});

export const viewSubmissionPayload = z.object({
  type: z.literal("view_submission"),
  user,
  team,
  view: z.object({
    callback_id: z.string().max(255),
    private_metadata: z.string().max(3000),
    state: z.object({
      values: z.record(z.string(), z.record(z.string(), z.object({ value: z.string().max(10_000).nullish() }))),
    }),
  }),
});

export const interactionPayload = z.discriminatedUnion("type", [blockActionsPayload, viewSubmissionPayload]);
export type BlockActionsPayload = z.infer<typeof blockActionsPayload>;
export type ViewSubmissionPayload = z.infer<typeof viewSubmissionPayload>;

/** The call a button names. */
export const callRef = z.object({ runId: idSchema("runId"), toolCallId: idSchema("toolCallId") }).strict();
/** A button's value: the call, and the language of the message it is on (left out: English). */
export const buttonValue = callRef.extend({ locale: z.enum(LOCALES).optional() }).strict();
/** The decline modal's private_metadata: the button's value, and where to update the message. */
export const declineMetadata = buttonValue.extend({ responseUrl: z.string().url().max(2048) }).strict();

export const slashCommand = z.object({
  command: z.string().max(64),
  text: z.string().max(1000),
  user_id: slackId,
  team_id: slackId,
});

/** The Slack account behind a payload. */
export function slackAccountOf(payload: { user: z.infer<typeof user>; team?: z.infer<typeof team> }) {
  return { teamId: payload.team?.id ?? payload.user.team_id ?? "", slackUserId: payload.user.id };
}

/** JSON text parsed, or undefined. */
export function parseJson(text: string | null | undefined): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}
