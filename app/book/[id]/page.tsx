import { notFound } from 'next/navigation';
import { PageShell, serviceFacts } from '@/app/_components/booking-page/page-shell';
import { Card, CardBody, CardHeader } from '@/app/_components/ui/card';
import { bookingPageOf } from '@/server/trpc/booking-pages';
import { BookForm } from './book-form';

export const metadata = { title: 'Book · Switchboard', robots: { index: false } };

/**
 * A public service's booking page (no sign-in): what it is, then the free times and the form
 * (book-form.tsx). Server-rendered: the service is in the first answer; 404 unless public and active.
 */
export default async function BookingPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const service = await bookingPageOf(id);
  if (!service) notFound();
  return (
    <PageShell>
      <Card>
        <CardHeader
          as="h1"
          title={service.name}
          description={
            <>
              {serviceFacts(service)}
              {service.payment !== 'none' && service.price && (
                <span className="block">
                  {service.payment === 'deposit' && service.deposit_amount !== null
                    ? 'A deposit is paid when booking.'
                    : 'Paid when booking.'}
                </span>
              )}
            </>
          }
        />
        <CardBody>
          <BookForm service={service} />
        </CardBody>
      </Card>
    </PageShell>
  );
}
