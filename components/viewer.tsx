"use client";

/**
 * Who is looking at the page, for the browser's own wording ("Assigned to you") and for hiding what
 * the role cannot do. The server checks every action again; this only shapes what is shown.
 */
import { createContext, useContext, type ReactNode } from "react";
import type { Role } from "@/lib/auth/roles";

export interface Viewer {
  id: string;
  email: string;
  role: Role | null;
}

const ViewerContext = createContext<Viewer | null>(null);

export function ViewerProvider({ viewer, children }: { viewer: Viewer | null; children: ReactNode }) {
  return <ViewerContext.Provider value={viewer}>{children}</ViewerContext.Provider>;
}

/** The signed-in person, or null on pages without one (sign-in). */
export function useViewer(): Viewer | null {
  return useContext(ViewerContext);
}
