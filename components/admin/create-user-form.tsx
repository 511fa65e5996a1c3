"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { createUser } from "@/lib/actions/create-user";
import { ROLE_LABELS, ROLES } from "@/lib/auth/roles";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";

export function CreateUserForm() {
  const router = useRouter();
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = Object.fromEntries(new FormData(form));
    setPending(true);
    const result = await createUser(data);
    setPending(false);
    if (result.ok) {
      form.reset();
      setMessage({ kind: "ok", text: `Created ${result.data.email}. Give them their password in person or over a secure channel.` });
      router.refresh();
    } else {
      setMessage({ kind: "error", text: result.error.message });
    }
  }

  return (
    <section aria-labelledby="create-user" className="rounded-lg border border-neutral-200 bg-white p-5">
      <h2 id="create-user" className="text-base font-semibold">
        Add a user
      </h2>
      <form onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor="new-user-name">Name</Label>
          <Input id="new-user-name" name="name" required maxLength={100} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="new-user-email">Email</Label>
          <Input id="new-user-email" name="email" type="email" required />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="new-user-role">Role</Label>
          <Select id="new-user-role" name="role" defaultValue="reviewer">
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="new-user-password">Initial password</Label>
          <Input id="new-user-password" name="password" type="password" required minLength={10} autoComplete="new-password" />
        </div>
        <div className="sm:col-span-2 flex flex-col gap-3">
          <div role="status" aria-live="polite">
            {message ? <Alert variant={message.kind === "ok" ? "success" : "destructive"}>{message.text}</Alert> : null}
          </div>
          <div>
            <Button type="submit" disabled={pending}>
              {pending ? "Adding…" : "Add user"}
            </Button>
          </div>
        </div>
      </form>
    </section>
  );
}
