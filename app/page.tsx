import { redirect } from 'next/navigation';
import { currentViewer } from '@/server/trpc/membership';

export const dynamic = 'force-dynamic';

export default async function Home() {
  const viewer = await currentViewer();
  redirect(viewer ? '/bookings' : '/login');
}
