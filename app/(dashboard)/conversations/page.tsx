import { PermissionGate } from '@/app/(dashboard)/permission-gate';
import { ConversationsView } from './conversations-view';

export const metadata = { title: 'Conversations · Switchboard' };

export default function ConversationsPage() {
  return (
    <PermissionGate permission="conversations.read">
      <ConversationsView />
    </PermissionGate>
  );
}
