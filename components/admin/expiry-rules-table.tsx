"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { deleteExpiryRule } from "@/lib/actions/delete-expiry-rule";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

type Rule = {
  agentId: string;
  toolName: string;
  afterMinutes: number;
  mode: string;
  warnMinutes: number | null;
  updatedBy: string;
  updatedAt: string;
};

export function ExpiryRulesTable({ rules }: { rules: Rule[] }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  if (rules.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-neutral-300 bg-white p-6 text-center text-sm text-neutral-600">
        No expiry rules: every call waits until a reviewer decides.
      </p>
    );
  }
  async function remove(rule: Rule) {
    const result = await deleteExpiryRule({ agentId: rule.agentId, toolName: rule.toolName });
    setError(result.ok ? null : result.error.message);
    router.refresh();
  }
  return (
    <div className="flex flex-col gap-3">
      {error ? <Alert variant="destructive">{error}</Alert> : null}
      <div className="rounded-lg border border-neutral-200 bg-white">
        <Table>
          <TableCaption>Expiry rules: a tool&rsquo;s own rule wins over its agent&rsquo;s</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>Agent</TableHead>
              <TableHead>Tool</TableHead>
              <TableHead>Expires after</TableHead>
              <TableHead>At expiry</TableHead>
              <TableHead>Warning</TableHead>
              <TableHead>Last changed</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rules.map((rule) => (
              <TableRow key={`${rule.agentId}\u0000${rule.toolName}`} data-expiry-rule={`${rule.agentId}/${rule.toolName}`}>
                <TableCell className="font-mono text-xs">{rule.agentId}</TableCell>
                <TableCell className="font-mono text-xs">{rule.toolName || "every tool"}</TableCell>
                <TableCell>{rule.afterMinutes} min</TableCell>
                <TableCell>{rule.mode === "mark" ? "marked expired" : "declined"}</TableCell>
                <TableCell>{rule.warnMinutes ? `${rule.warnMinutes} min before` : "none"}</TableCell>
                <TableCell className="text-xs text-neutral-600">
                  {rule.updatedBy}, <time dateTime={rule.updatedAt}>{rule.updatedAt.replace("T", " ").slice(0, 16)} UTC</time>
                </TableCell>
                <TableCell>
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => remove(rule)}
                    aria-label={`Remove the rule for ${rule.toolName || "every tool"} of ${rule.agentId}`}
                  >
                    Remove
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
