"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { revokeOwnToken } from "@/lib/actions/revoke-own-token";
import { revokeToken } from "@/lib/actions/revoke-token";
import type { TokenDto } from "@/lib/auth/token-dto";
import { useErrorText } from "@/components/error-text";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

/** The tokens of /admin/tokens (every one, with its owner) or /profile (your own): when and where last used, and Revoke. */
export function TokensTable({ tokens, scope }: { tokens: TokenDto[]; scope: "admin" | "own" }) {
  const router = useRouter();
  const t = useTranslations("tokens");
  const format = useFormatter();
  const errorText = useErrorText();
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const date = (iso: string | null) => (iso ? format.dateTime(new Date(iso), { dateStyle: "medium", timeStyle: "short" }) : t("never"));

  async function revoke(token: TokenDto) {
    setMessage(null);
    const result = await (scope === "admin" ? revokeToken : revokeOwnToken)({ id: token.id });
    setMessage(result.ok ? { kind: "ok", text: t("revoked", { name: token.name }) } : { kind: "error", text: errorText(result.error) });
    router.refresh();
  }

  if (tokens.length === 0) return <p className="text-sm text-neutral-600">{t("none")}</p>;
  return (
    <div className="flex flex-col gap-3">
      <div role="status" aria-live="polite">
        {message ? <Alert variant={message.kind === "ok" ? "success" : "destructive"}>{message.text}</Alert> : null}
      </div>
      <div className="overflow-x-auto rounded-lg border border-neutral-200 bg-white">
        <Table>
          <TableCaption>{t("caption")}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>{t("name")}</TableHead>
              {scope === "admin" ? <TableHead>{t("owner")}</TableHead> : null}
              <TableHead>{t("scopes")}</TableHead>
              <TableHead>{t("expires")}</TableHead>
              <TableHead>{t("lastUsed")}</TableHead>
              <TableHead>{t("status")}</TableHead>
              <TableHead>
                <span className="sr-only">{t("actions")}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {tokens.map((token) => (
              <TableRow key={token.id} data-token-prefix={token.prefix}>
                <TableCell>
                  <div>{token.name}</div>
                  <div className="font-mono text-xs text-neutral-500">{token.prefix}…</div>
                </TableCell>
                {scope === "admin" ? <TableCell className="font-mono text-xs">{token.owner.label}</TableCell> : null}
                <TableCell className="font-mono text-xs">
                  <code>{token.scopes.join(" ")}</code>
                </TableCell>
                <TableCell className="text-xs">{token.expiresAt ? date(token.expiresAt) : t("noExpiry")}</TableCell>
                <TableCell className="text-xs">
                  {date(token.lastUsedAt)}
                  {token.lastUsedAddress ? <div className="font-mono text-neutral-500">{token.lastUsedAddress}</div> : null}
                </TableCell>
                <TableCell>
                  <Badge variant={token.status === "active" ? "blue" : "secondary"}>{t(`state.${token.status}`)}</Badge>
                </TableCell>
                <TableCell>
                  {/* A disabled account's token would work again once the account is enabled: it may still be revoked. */}
                  {token.status === "active" || token.status === "disabled" ? (
                    <Button variant="outline" size="sm" onClick={() => void revoke(token)} aria-label={t("revokeOf", { name: token.name })}>
                      {t("revoke")}
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
