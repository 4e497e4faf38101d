import type { ReactNode } from 'react';

export const metadata = { title: 'Switchboard', description: 'Messaging, bookings and webhooks for your business' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
