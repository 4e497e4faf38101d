import { PermissionGate } from '@/app/(dashboard)/permission-gate';
import { BookingsView } from './bookings-view';

export const metadata = { title: 'Bookings · Switchboard' };

export default function BookingsPage() {
  return (
    <PermissionGate permission="bookings.read">
      <BookingsView />
    </PermissionGate>
  );
}
