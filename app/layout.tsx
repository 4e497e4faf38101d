import './globals.css';
import type { ReactNode } from 'react';
import { Providers } from './_components/providers';

export const metadata = {
  title: 'Switchboard',
  description: 'Messaging, bookings and webhooks for your business',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
