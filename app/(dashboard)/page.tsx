import { redirect } from 'next/navigation';
import { allows } from '@/server/client-safe/permissions';
import { currentViewer } from '@/server/trpc/membership';
import { OverviewView } from './overview/overview-view';

export const metadata = { title: 'Overview · Switchboard' };

/** The dashboard's home: the overview for those who may read it; the others start at their bookings. */
export default async function Home() {
  const viewer = await currentViewer();
  if (!viewer || !allows(viewer.permissions, 'overview.read')) redirect('/bookings');
  return <OverviewView />;
}
