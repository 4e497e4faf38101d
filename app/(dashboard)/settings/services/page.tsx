import { PermissionGate } from '@/app/(dashboard)/permission-gate';
import { ServicesView } from './services-view';

export const metadata = { title: 'Services · Switchboard' };

export default function ServicesPage() {
  return (
    <PermissionGate permission="services.read">
      <ServicesView />
    </PermissionGate>
  );
}
