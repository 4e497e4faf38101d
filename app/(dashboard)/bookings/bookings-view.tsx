'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { PageHeader, Tabs, TabsContent, TabsList, TabsTrigger } from '@/app/_components/ui';
import { BookingsList } from './bookings-list';
import { BookingsCalendar } from './calendar/calendar-view';

/** /bookings: the calendar (default) or the list (?view=list); the view is in the URL. */
export function BookingsView() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const view = params.get('view') === 'list' ? 'list' : 'calendar';
  const show = (next: string) => {
    const query = new URLSearchParams(params.toString());
    if (next === 'list') query.set('view', 'list');
    else query.delete('view');
    const search = query.toString();
    router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false });
  };
  return (
    <>
      <PageHeader
        title="Bookings"
        description="Appointments made by customers, your assistant, your team or the API."
      />
      <Tabs value={view} onValueChange={show}>
        <TabsList aria-label="Bookings views">
          <TabsTrigger value="calendar">Calendar</TabsTrigger>
          <TabsTrigger value="list">List</TabsTrigger>
        </TabsList>
        <TabsContent value="calendar">
          <BookingsCalendar />
        </TabsContent>
        <TabsContent value="list">
          <BookingsList />
        </TabsContent>
      </Tabs>
    </>
  );
}
