import { PermissionGate } from '@/app/(dashboard)/permission-gate';
import { ResourceDetail } from './resource-detail';

export const metadata = { title: 'Resource · Switchboard' };

export default async function ResourcePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <PermissionGate permission="resources.read">
      <ResourceDetail id={id} />
    </PermissionGate>
  );
}
