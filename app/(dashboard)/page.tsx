import { redirect } from 'next/navigation';
import { currentViewer } from '@/server/trpc/membership';
import { OverviewView } from './overview/overview-view';

export const metadata = { title: 'Overview · Switchboard' };

/** The dashboard's home: the overview for those who may read it; the others start at their bookings. */
export default async function Home() {
  const viewer = await currentViewer();
  if (!viewer?.permissions.includes('overview.read')) redirect('/bookings');
  return <OverviewView />;
}
