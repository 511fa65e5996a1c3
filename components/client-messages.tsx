import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import type { ReactNode } from "react";
import { CLIENT_NAMESPACES, pickMessages, type ClientRoute } from "@/lib/i18n/client-namespaces";

/**
 * Picked once per catalog and route: the catalogs are loaded once per process (lib/i18n/catalogs.ts),
 * so their identity keys the picks and no request copies them again.
 */
const picks = new WeakMap<object, Map<ClientRoute, Record<string, unknown>>>();

function picked(messages: Record<string, unknown>, route: ClientRoute) {
  let byRoute = picks.get(messages);
  if (!byRoute) picks.set(messages, (byRoute = new Map()));
  let result = byRoute.get(route);
  if (!result) byRoute.set(route, (result = pickMessages(messages, CLIENT_NAMESPACES[route])));
  return result;
}

/**
 * The messages a route's client components need (lib/i18n/client-namespaces.ts), in the request's
 * language: a nested provider replaces its parent's messages, so each route's list is complete.
 */
export async function ClientMessages({ route, children }: { route: ClientRoute; children: ReactNode }) {
  return <NextIntlClientProvider messages={picked(await getMessages(), route)}>{children}</NextIntlClientProvider>;
}
