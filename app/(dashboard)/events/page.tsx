import { PermissionGate } from '@/app/(dashboard)/permission-gate';
import { EventsView } from './events-view';

export const metadata = { title: 'Events · Switchboard' };

/** The event log needs what GET /events needs. */
export default function EventsPage() {
  return (
    <PermissionGate permission="events.read">
      <EventsView />
    </PermissionGate>
  );
}
