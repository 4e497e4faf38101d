import { redirect } from 'next/navigation';
import { currentViewer } from '@/server/trpc/membership';
import { OverviewView } from './overview/overview-view';

export const metadata = { title: 'Overview · Switchboard' };

/** The dashboard's home: the overview for admins; agents (no webhook data) start at their bookings. */
export default async function Home() {
  const viewer = await currentViewer();
  if (viewer?.role !== 'admin') redirect('/bookings');
  return <OverviewView />;
}
