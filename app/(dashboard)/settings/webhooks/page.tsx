import { PermissionGate } from '@/app/(dashboard)/permission-gate';
import { WebhooksView } from './webhooks-view';

export const metadata = { title: 'Webhooks · Switchboard' };

export default function WebhooksPage() {
  return (
    <PermissionGate permission="webhooks.read">
      <WebhooksView />
    </PermissionGate>
  );
}
