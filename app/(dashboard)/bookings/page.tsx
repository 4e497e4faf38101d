import { BookingsView } from './bookings-view';

export const metadata = { title: 'Bookings · Switchboard' };

export default function BookingsPage() {
  return <BookingsView />;
}
