import type { ReactNode } from "react";
import { ClientMessages } from "@/components/client-messages";

/** The messages this route's client components read, and no others (lib/i18n/client-namespaces.ts). */
export default function Layout({ children }: { children: ReactNode }) {
  return <ClientMessages route="/admin/tokens">{children}</ClientMessages>;
}
