/**
 * What the production build exposes as server actions (endpoints any signed-in browser can post to):
 * exactly the actions a page's browser code calls, each checked on the server like a route. Reads
 * that pages and scripts make on the server are not endpoints. Read from the build's manifest.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

describe("server actions", () => {
  it("exposes as server actions only what a browser calls: reads for pages and scripts are not endpoints", () => {
    const manifest = JSON.parse(readFileSync(path.resolve(".next/server/server-reference-manifest.json"), "utf8")) as {
      node: Record<string, { exportedName?: string }>;
    };
    const actions = Object.values(manifest.node)
      .map((entry) => entry.exportedName)
      .sort();
    expect(actions).toEqual([
      // The rules page (/admin/rules): admins only.
      "acceptSuggestedRule",
      "applyRule",
      // "Approve and trust" beside Approve: reviewers and admins.
      "approveAndTrust",
      "approveToolCall",
      "assignThread",
      "assignToolCall",
      "backtestRule",
      "browseRuns",
      // API tokens on /admin/tokens (admins) and /profile (your own): with a session, never a token.
      "createOwnToken",
      "createRule",
      "createServiceAccount",
      // Link Slack on /profile.
      "createSlackLinkCode",
      "createToken",
      "createUser",
      "createWebhook",
      "decideInBulk",
      "declineAndSuggest",
      "declineToolCall",
      "deleteExpiryRule",
      "deleteRule",
      "dryRunRule",
      "listAssignableUsers",
      // What an opened call shows beside its arguments (read when it opens, never with the queue page).
      "readCallDecisions",
      "readConversation",
      "readEarlierDecisions",
      "readEarlierInThread",
      "readRun",
      "readToolInfo",
      "resumeToolCall",
      "retryWebhookDelivery",
      "revokeOwnToken",
      "revokeToken",
      "saveExpiryRule",
      "saveReviewSetting",
      // Language and time zone on /profile: any signed-in role, for themselves.
      "setLanguagePreference",
      "setNotificationPreference",
      // Disable / Enable a service account on /admin/tokens: admins.
      "setServiceAccountDisabled",
      "setUserRole",
      "signOut",
      "suggestRules",
      "updateRule",
      "updateWebhook",
      // "Verify now" on /history: admins.
      "verifyAuditChain",
    ]);
  });
});
