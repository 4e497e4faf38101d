import './globals.css';
import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';

export const metadata: Metadata = {
  title: 'Switchboard',
  description: 'Messaging, bookings and webhooks for your business',
  // public/icon.svg is the source; scripts/make-icons.mjs renders the raster ones from it.
  icons: {
    icon: [
      { url: '/icon.svg', type: 'image/svg+xml' },
      { url: '/favicon.ico', sizes: '16x16 32x32 48x48' },
    ],
    apple: '/apple-icon.png',
  },
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: '#151a23' };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request: its scripts carry that request's CSP nonce (proxy.ts), which
  // a page prerendered at build time could not have.
  await connection();
  // The session and tRPC providers are the signed-in pages' (app/_components/providers.tsx, in their
  // own layouts): the public booking pages load none of that code.
  return (
    <html lang="en">
      <body className="min-h-dvh bg-bg font-sans text-fg antialiased">{children}</body>
    </html>
  );
}
