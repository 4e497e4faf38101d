'use client';
/**
 * The signed-in viewer for client components: who they are and what they may do. The dashboard
 * layout reads it on the server (the membership re-checked) and hands it down; views ask
 * `useViewer().can(permission)` instead of deciding by role. The server checks the same permission
 * on every call anyway.
 */
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { allows, type Permission } from '@/server/client-safe/permissions';

interface ViewerValue {
  userId: string;
  permissions: readonly Permission[];
}

const ViewerContext = createContext<(ViewerValue & { can: (p: Permission) => boolean }) | null>(null);

export function ViewerProvider({ value, children }: { value: ViewerValue; children: ReactNode }) {
  const { userId, permissions } = value;
  const viewer = useMemo(
    () => ({ userId, permissions, can: (p: Permission) => allows(permissions, p) }),
    [userId, permissions],
  );
  return <ViewerContext.Provider value={viewer}>{children}</ViewerContext.Provider>;
}

export function useViewer() {
  const viewer = useContext(ViewerContext);
  if (!viewer) throw new Error('useViewer() needs the dashboard layout (ViewerProvider)');
  return viewer;
}
