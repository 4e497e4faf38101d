import { PermissionGate } from '@/app/(dashboard)/permission-gate';
import { ApiKeysView } from './api-keys-view';

export const metadata = { title: 'API keys · Switchboard' };

export default function ApiKeysPage() {
  return (
    <PermissionGate permission="api_keys.read">
      <ApiKeysView />
    </PermissionGate>
  );
}
