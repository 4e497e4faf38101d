import { Card, CardBody, CardHeader } from '@/app/_components/ui';
import { currentViewer } from '@/server/trpc/membership';
import { EventsView } from './events-view';

export const metadata = { title: 'Events · Switchboard' };

/** The event log is for admins, like GET /events; the tRPC router enforces the same rule. */
export default async function EventsPage() {
  const viewer = await currentViewer();
  if (viewer?.role !== 'admin') {
    return (
      <Card aria-labelledby="forbidden-title" className="max-w-xl">
        <CardHeader as="h1" titleId="forbidden-title" title="Admins only" />
        <CardBody className="text-muted">403 — your role cannot open the event log.</CardBody>
      </Card>
    );
  }
  return <EventsView />;
}
