/**
 * Presence (lib/live/presence.ts): a tab says which calls it has open (POST /api/events/presence)
 * and hears back who else has them open. Any signed-in reader: looking at a call is reading it.
 */
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { presenceInput, setPresence } from "../live/presence.ts";
import { operation } from "./operation.ts";

export const setPresenceOperation = operation({
  name: "setPresence",
  permission: "read",
  input: presenceInput,
  run: async (input, { actor }) => ({ calls: await setPresence(await getDb(databaseUrlFromEnv()), actor, input) }),
});
