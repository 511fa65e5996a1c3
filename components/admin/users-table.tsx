"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { setUserRole } from "@/lib/actions/set-user-role";
import { ROLE_LABELS, ROLES, isRole } from "@/lib/auth/roles";
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
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);

  async function changeRole(user: UserRow, role: string) {
    setMessage(null);
    const result = await setUserRole({ userId: user.id, role });
    setMessage(result.ok ? { kind: "ok", text: `${user.email} is now ${role}.` } : { kind: "error", text: result.error.message });
    router.refresh();
  }

  return (
    <div className="flex flex-col gap-3">
      <div role="status" aria-live="polite">
        {message ? <Alert variant={message.kind === "ok" ? "success" : "destructive"}>{message.text}</Alert> : null}
      </div>
      <div className="rounded-lg border border-neutral-200 bg-white">
        <Table>
          <TableCaption>Users and their roles</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Email</TableHead>
              <TableHead>Role</TableHead>
              <TableHead>Since</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {users.map((user) => (
              <TableRow key={user.id}>
                <TableCell>{user.name}</TableCell>
                <TableCell className="font-mono text-xs">{user.email}</TableCell>
                <TableCell>
                  <Select
                    aria-label={`Role of ${user.email}`}
                    value={isRole(user.role) ? user.role : ""}
                    disabled={user.id === currentUserId}
                    onChange={(event) => void changeRole(user, event.target.value)}
                  >
                    {isRole(user.role) ? null : <option value="">No role</option>}
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {ROLE_LABELS[role]}
                      </option>
                    ))}
                  </Select>
                </TableCell>
                <TableCell className="text-xs text-neutral-500">{user.createdAt.slice(0, 10)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
