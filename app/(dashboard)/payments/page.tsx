import { PermissionGate } from '@/app/(dashboard)/permission-gate';
import { PaymentsView } from './payments-view';

export const metadata = { title: 'Payments · Switchboard' };

export default function PaymentsPage() {
  return (
    <PermissionGate permission="payments.read">
      <PaymentsView />
    </PermissionGate>
  );
}
