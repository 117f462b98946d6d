"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { Viewer } from "@/lib/auth/principal";
import { can, type Permission } from "@/lib/auth/roles";

// Who is looking, for client components that hide what the viewer's role cannot use.
// Hiding is a courtesy: the server refuses the same actions through lib/auth/guard.ts.

const ViewerContext = createContext<Viewer | null>(null);

export function ViewerProvider({ viewer, children }: { viewer: Viewer | null; children: ReactNode }) {
  return <ViewerContext.Provider value={viewer}>{children}</ViewerContext.Provider>;
}

export function useViewer(): Viewer | null {
  return useContext(ViewerContext);
}

/** Whether the signed-in viewer's role holds the permission (false for nobody). */
export function useCan(permission: Permission): boolean {
  return can(useViewer()?.role, permission);
}

/** Renders its children only for viewers whose role holds the permission. */
export function IfCan({
  permission,
  children,
  otherwise = null,
}: {
  permission: Permission;
  children: ReactNode;
  otherwise?: ReactNode;
}) {
  return useCan(permission) ? <>{children}</> : <>{otherwise}</>;
}
