"use client";

import { useTranslations } from "next-intl";
import type { ProposedRule } from "@/lib/rules/dto";

/** A rule saved or not (a suggested one has no id yet). */
type DescribedRule = Pick<
  ProposedRule,
  "effect" | "reason" | "approvals" | "agentId" | "toolName" | "resource" | "resourceMatch" | "callKind" | "conditions" | "risk"
>;

/** What a rule does, in the reader's words; its conditions stay as written (path, operator, JSON value). */
export function useDescribeRule(): (rule: DescribedRule) => string {
  const t = useTranslations("admin.rules");
  return (rule) => {
    const what =
      rule.effect === "approve"
        ? t("describeApprove")
        : rule.effect === "decline"
          ? t("describeDecline", { reason: rule.reason ?? "" })
          : rule.effect === "require_approvals"
            ? t("describeRequire", { approvals: rule.approvals ?? 0 })
            : t("describeAsk");
    const where = [
      rule.agentId ? t("agentIs", { agent: rule.agentId }) : t("anyAgent"),
      rule.toolName ? t("toolIs", { tool: rule.toolName }) : t("anyTool"),
      rule.resource ? t(rule.resourceMatch === "prefix" ? "resourceStarts" : "resourceIs", { resource: rule.resource }) : null,
      rule.callKind ? t("kindCalls", { kind: rule.callKind }) : null,
      ...rule.conditions.map(
        (condition) => `${condition.path} ${condition.op}${condition.op === "exists" ? "" : ` ${JSON.stringify(condition.value)}`}`,
      ),
    ].filter(Boolean);
    return `${what} · ${where.join(" · ")} · ${t("risk", { risk: rule.risk })}`;
  };
}
