import type { ReactNode } from 'react';
import { Providers } from '@/app/_components/providers';

/** The session and tRPC providers this page's client code uses (the root layout has none). */
export default function Layout({ children }: { children: ReactNode }) {
  return <Providers>{children}</Providers>;
}
