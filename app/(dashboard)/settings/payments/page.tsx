import { PermissionGate } from '@/app/(dashboard)/permission-gate';
import { PaymentSettingsView } from './payment-settings-view';

export const metadata = { title: 'Payments settings · Switchboard' };

export default function PaymentSettingsPage() {
  return (
    <PermissionGate permission="payment_providers.read">
      <PaymentSettingsView />
    </PermissionGate>
  );
}
