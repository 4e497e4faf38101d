'use client';
/**
 * The dashboard's navigation and sign-out. In the sidebar the links stack; on a phone the
 * sidebar becomes a header and the links wrap into a row.
 */
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from 'next-auth/react';

const MAIN = [
  { href: '/bookings', label: 'Bookings' },
  { href: '/conversations', label: 'Conversations' },
  { href: '/payments', label: 'Payments' },
];
const SETTINGS = [
  { href: '/settings/webhooks', label: 'Webhooks' },
  { href: '/settings/api-keys', label: 'API keys' },
  { href: '/settings/team', label: 'Team' },
  { href: '/settings/audit-log', label: 'Audit log' },
];

const linkClass =
  'rounded-control px-2.5 py-1.5 text-sidebar-fg no-underline hover:bg-sidebar-hover hover:text-white ' +
  'aria-[current=page]:bg-sidebar-hover aria-[current=page]:font-semibold aria-[current=page]:text-white';

export function Nav({ isAdmin }: { isAdmin: boolean }) {
  const path = usePathname();
  const link = (item: { href: string; label: string }) => (
    <Link
      key={item.href}
      href={item.href}
      className={linkClass}
      aria-current={path.startsWith(item.href) ? 'page' : undefined}
    >
      {item.label}
    </Link>
  );
  return (
    <nav className="flex flex-wrap gap-1 md:flex-col md:flex-nowrap md:gap-0.5" aria-label="Main">
      {MAIN.map(link)}
      {/* Agents never see settings; the server refuses them anyway. */}
      {/* A plain link: /docs is a static page of its own, outside the dashboard. */}
      <a href="/docs" className={linkClass}>
        API reference
      </a>
      {isAdmin && (
        <>
          <div className="mt-3 mb-1 ml-2.5 hidden text-xs tracking-wider text-sidebar-muted uppercase md:block">
            Settings
          </div>
          {SETTINGS.map(link)}
        </>
      )}
    </nav>
  );
}

export function SignOutButton() {
  return (
    <button
      type="button"
      className="cursor-pointer rounded-control border border-[#3a4454] px-2.5 py-1 text-sm text-sidebar-fg hover:bg-sidebar-hover"
      onClick={() => signOut({ callbackUrl: '/login' })}
    >
      Sign out
    </button>
  );
}
