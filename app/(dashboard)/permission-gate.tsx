import type { ReactNode } from 'react';
import { Card, CardBody, CardHeader } from '@/app/_components/ui';
import { allows, type Permission, rolesWith } from '@/server/client-safe/permissions';
import { currentViewer } from '@/server/trpc/membership';

/**
 * A page that needs a permission: its content, or a 403 card naming who may open it. The
 * procedures behind the page check the same permission on every call.
 */
export async function PermissionGate({
  permission,
  children,
}: {
  permission: Permission;
  children: ReactNode;
}) {
  const viewer = await currentViewer();
  if (viewer && allows(viewer.permissions, permission)) return children;
  const roles = rolesWith(permission);
  return (
    <Card aria-labelledby="forbidden-title" className="max-w-xl">
      <CardHeader
        as="h1"
        titleId="forbidden-title"
        title={roles.length === 1 && roles[0] === 'admin' ? 'Admins only' : 'Not for your role'}
      />
      <CardBody className="text-muted">
        403 — your role ({viewer?.role ?? 'none'}) cannot open this page. Ask an admin of this tenant.
      </CardBody>
    </Card>
  );
}
