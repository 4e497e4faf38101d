import { PermissionGate } from '@/app/(dashboard)/permission-gate';
import { TeamView } from './team-view';

export const metadata = { title: 'Team · Switchboard' };

export default function TeamPage() {
  return (
    <PermissionGate permission="members.read">
      <TeamView />
    </PermissionGate>
  );
}
