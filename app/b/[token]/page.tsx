import { notFound } from 'next/navigation';
import { PageShell } from '@/app/_components/booking-page/page-shell';
import { managePageOf } from '@/server/trpc/booking-pages';
import { ManageBooking } from './manage-booking';

export const metadata = { title: 'Your booking · Switchboard', robots: { index: false } };

/**
 * A booking's manage page, behind its manage link (no sign-in: the token is the credential). 404 for
 * an unknown token or one whose booking ended more than 30 days ago.
 */
export default async function ManagePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const booking = await managePageOf(token);
  if (!booking) notFound();
  return (
    <PageShell>
      <ManageBooking token={token} initial={booking} />
    </PageShell>
  );
}
