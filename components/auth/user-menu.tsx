"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { authClient } from "@/lib/auth/client";
import { ROLE_LABELS, type Role } from "@/lib/auth/roles";
import { Button } from "@/components/ui/button";

export function UserMenu({ name, email, role }: { name: string; email: string; role: Role | null }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  return (
    <div className="flex items-center gap-3 text-sm">
      <span className="text-neutral-600">
        <span className="font-medium text-neutral-900" title={email}>
          {name}
        </span>{" "}
        · {role ? ROLE_LABELS[role] : "No role"}
      </span>
      <Button
        variant="outline"
        size="xs"
        disabled={pending}
        onClick={async () => {
          setPending(true);
          await authClient.signOut();
          router.replace("/sign-in");
          router.refresh();
        }}
      >
        Sign out
      </Button>
    </div>
  );
}
