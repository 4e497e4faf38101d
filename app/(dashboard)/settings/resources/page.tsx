import { PermissionGate } from '@/app/(dashboard)/permission-gate';
import { ResourcesView } from './resources-view';

export const metadata = { title: 'Resources · Switchboard' };

export default function ResourcesPage() {
  return (
    <PermissionGate permission="resources.read">
      <ResourcesView />
    </PermissionGate>
  );
}
