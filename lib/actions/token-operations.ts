/**
 * API tokens and service accounts: every token and service account for admins (/admin/tokens,
 * /api/admin/tokens, /api/admin/service-accounts), a person's own tokens for anyone signed in
 * (/profile, /api/profile/tokens). The server actions and the JSON API run these.
 */
import { z } from "zod";
import { accessRecorder } from "../audit/access-changes.ts";
import {
  createServiceAccount,
  listServiceAccounts,
  newServiceAccountInput,
  serviceAccountStateInput,
  setServiceAccountDisabled,
} from "../auth/service-accounts.ts";
import { createToken, listTokens, newTokenInput, revokeToken, tokenIdInput } from "../auth/tokens.ts";
import { idSchema } from "../ids.ts";
import { operation } from "./operation.ts";

export const listTokensOperation = operation({
  name: "listTokens",
  permission: "manageUsers",
  input: z.object({}).strict(),
  run: async () => ({ tokens: await listTokens(), serviceAccounts: await listServiceAccounts() }),
});

/** An admin's token: for themselves, or (serviceAccountId) for a service account. */
export const createTokenOperation = operation({
  name: "createToken",
  permission: "manageUsers",
  input: newTokenInput.extend({ serviceAccountId: idSchema("serviceAccountId").optional() }).strict(),
  run: ({ serviceAccountId, ...input }, { actor }) =>
    createToken(
      input,
      serviceAccountId ? { serviceAccountId } : { userId: actor.id, role: actor.role },
      actor,
      accessRecorder(actor, "create-token"),
    ),
});

export const revokeTokenOperation = operation({
  name: "revokeToken",
  permission: "manageUsers",
  input: tokenIdInput,
  run: ({ id }, { actor }) => revokeToken(id, actor, { anyOwner: true, record: accessRecorder(actor, "revoke-token") }),
});

export const createServiceAccountOperation = operation({
  name: "createServiceAccount",
  permission: "manageUsers",
  input: newServiceAccountInput,
  run: (input, { actor }) => createServiceAccount(input, actor, accessRecorder(actor, "create-service-account")),
});

/** Disables a service account (its tokens stop at once, on every instance) or enables it again. */
export const setServiceAccountDisabledOperation = operation({
  name: "setServiceAccountDisabled",
  permission: "manageUsers",
  input: serviceAccountStateInput,
  run: (input, { actor }) =>
    setServiceAccountDisabled(input, actor, accessRecorder(actor, input.disabled ? "disable-service-account" : "enable-service-account")),
});

export const listServiceAccountsOperation = operation({
  name: "listServiceAccounts",
  permission: "manageUsers",
  input: z.object({}).strict(),
  run: () => listServiceAccounts(),
});

/** Anyone signed in: their own tokens, which act as them (never above their role). */
export const listOwnTokensOperation = operation({
  name: "listOwnTokens",
  permission: "read",
  input: z.object({}).strict(),
  run: (_input, { actor }) => listTokens({ userId: actor.id }),
});

export const createOwnTokenOperation = operation({
  name: "createOwnToken",
  permission: "read",
  input: newTokenInput,
  run: (input, { actor }) => createToken(input, { userId: actor.id, role: actor.role }, actor, accessRecorder(actor, "create-token")),
});

export const revokeOwnTokenOperation = operation({
  name: "revokeOwnToken",
  permission: "read",
  input: tokenIdInput,
  run: ({ id }, { actor }) => revokeToken(id, actor, { anyOwner: false, record: accessRecorder(actor, "revoke-token") }),
});
