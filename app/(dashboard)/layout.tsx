import Link from 'next/link';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { Nav, SignOutButton } from '@/app/_components/nav';
import { currentViewer, listMemberships } from '@/server/trpc/membership';

export const dynamic = 'force-dynamic';

/** The signed-in shell. The membership (and so the role) is re-read from the database here. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const viewer = await currentViewer();
  if (!viewer) redirect('/login');
  if (!viewer.tenantId || !viewer.role) redirect('/select-tenant');
  const tenantCount = (await listMemberships(viewer.userId)).length;
  return (
    <div className="shell">
      <aside className="sidebar">
        <div>
          <div className="brand">Switchboard</div>
          <div className="tenant" data-testid="current-tenant">
            {viewer.tenantName} · {viewer.role}
          </div>
        </div>
        <Nav isAdmin={viewer.role === 'admin'} />
        <div className="sidebar-foot">
          <span>{viewer.email}</span>
          {tenantCount > 1 && <Link href="/select-tenant">Switch tenant</Link>}
          <SignOutButton />
        </div>
      </aside>
      <main className="content">{children}</main>
    </div>
  );
}
