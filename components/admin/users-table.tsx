"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { setUserRole } from "@/lib/actions/set-user-role";
import { ROLES, isRole } from "@/lib/auth/roles";
import { useErrorText } from "@/components/error-text";
import { Alert } from "@/components/ui/alert";
import { Select } from "@/components/ui/select";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

interface UserRow {
  id: string;
  name: string;
  email: string;
  role: string | null;
  createdAt: string;
}

export function UsersTable({ users, currentUserId }: { users: UserRow[]; currentUserId: string }) {
  const router = useRouter();
  const t = useTranslations();
  const format = useFormatter();
  const errorText = useErrorText();
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);

  async function changeRole(user: UserRow, role: string) {
    setMessage(null);
    const result = await setUserRole({ userId: user.id, role });
    setMessage(
      result.ok
        ? { kind: "ok", text: t("users.roleChanged", { email: user.email, role }) }
        : { kind: "error", text: errorText(result.error) },
    );
    router.refresh();
  }

  return (
    <div className="flex flex-col gap-3">
      <div role="status" aria-live="polite">
        {message ? <Alert variant={message.kind === "ok" ? "success" : "destructive"}>{message.text}</Alert> : null}
      </div>
      <div className="rounded-lg border border-neutral-200 bg-white">
        <Table>
          <TableCaption>{t("users.caption")}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>{t("users.name")}</TableHead>
              <TableHead>{t("users.email")}</TableHead>
              <TableHead>{t("users.role")}</TableHead>
              <TableHead>{t("users.since")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {users.map((user) => (
              <TableRow key={user.id}>
                <TableCell>{user.name}</TableCell>
                <TableCell className="font-mono text-xs">{user.email}</TableCell>
                <TableCell>
                  <Select
                    aria-label={t("users.roleOf", { email: user.email })}
                    value={isRole(user.role) ? user.role : ""}
                    disabled={user.id === currentUserId}
                    onChange={(event) => void changeRole(user, event.target.value)}
                  >
                    {isRole(user.role) ? null : <option value="">{t("roles.none")}</option>}
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {t(`roles.${role}`)}
                      </option>
                    ))}
                  </Select>
                </TableCell>
                <TableCell className="text-xs text-neutral-500">
                  {format.dateTime(new Date(user.createdAt), { dateStyle: "medium" })}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
