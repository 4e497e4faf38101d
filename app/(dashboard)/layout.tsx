import Link from 'next/link';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { Sidebar, SignOutButton } from '@/app/_components/nav';
import { Providers } from '@/app/_components/providers';
import { ViewerProvider } from '@/app/_components/viewer';
import { currentViewer, listMemberships } from '@/server/trpc/membership';

export const dynamic = 'force-dynamic';

/**
 * The signed-in shell. The membership (and so the role) is re-read from the database here. From
 * `md` up the dark sidebar runs the full height of the page (its content stays in view as the page
 * scrolls); on a phone it is a header bar with one menu button (app/_components/nav.tsx).
 * `min-w-0` on the page column keeps anything wide from widening the page.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const viewer = await currentViewer();
  if (!viewer) redirect('/login');
  if (!viewer.tenantId || !viewer.role) redirect('/select-tenant');
  const tenantCount = (await listMemberships(viewer.userId)).length;
  const brand = (
    <div className="flex min-w-0 items-center gap-2.5">
      {/* biome-ignore lint/performance/noImgElement: a static SVG needs no image optimisation */}
      <img src="/icon.svg" alt="" width={28} height={28} className="shrink-0" />
      <div className="min-w-0">
        <div className="text-lg leading-tight font-bold text-white">Switchboard</div>
        <div className="truncate text-sm text-sidebar-muted" data-testid="current-tenant">
          {viewer.tenantName} · {viewer.role}
        </div>
      </div>
    </div>
  );
  const account = (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 border-t border-white/10 pt-3 text-sm md:mt-auto md:flex-col md:items-start md:border-0 md:pt-0">
      <span className="max-w-full truncate text-sidebar-muted">{viewer.email}</span>
      {tenantCount > 1 && (
        <Link href="/select-tenant" className="text-sidebar-fg">
          Switch tenant
        </Link>
      )}
      <SignOutButton />
    </div>
  );
  return (
    <Providers>
      <ViewerProvider value={{ userId: viewer.userId, permissions: viewer.permissions }}>
        <div className="min-h-dvh md:grid md:grid-cols-[220px_minmax(0,1fr)]">
          <aside className="bg-sidebar text-sidebar-fg">
            <div className="flex flex-col gap-3 px-4 py-3 md:sticky md:top-0 md:max-h-dvh md:min-h-dvh md:gap-4 md:overflow-y-auto md:py-5">
              <Sidebar brand={brand} account={account} />
            </div>
          </aside>
          <main className="w-full max-w-[1200px] min-w-0 px-4 py-5 md:px-10 md:py-8">{children}</main>
        </div>
      </ViewerProvider>
    </Providers>
  );
}
