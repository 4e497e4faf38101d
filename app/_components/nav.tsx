'use client';
/**
 * The dashboard's navigation and sign-out. In the sidebar the links stack; on a phone the
 * sidebar becomes a header and the links wrap into a row.
 */
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from 'next-auth/react';
import type { Permission } from '@/server/client-safe/permissions';
import { useViewer } from './viewer';

interface NavItem {
  href: string;
  label: string;
  /** Shown to those who may read what the page shows. */
  permission: Permission;
  /** What a screen reader says, when the label alone would repeat another link's (Settings > Payments). */
  accessibleName?: string;
}

const MAIN: NavItem[] = [
  { href: '/', label: 'Overview', permission: 'overview.read' },
  { href: '/bookings', label: 'Bookings', permission: 'bookings.read' },
  { href: '/conversations', label: 'Conversations', permission: 'conversations.read' },
  { href: '/payments', label: 'Payments', permission: 'payments.read' },
  { href: '/events', label: 'Events', permission: 'events.read' },
];
/** Settings pages, each behind the permission its page needs (its page's PermissionGate checks the same). */
export const SETTINGS: NavItem[] = [
  { href: '/settings/resources', label: 'Resources', permission: 'resources.read' },
  { href: '/settings/services', label: 'Services', permission: 'services.read' },
  { href: '/settings/webhooks', label: 'Webhooks', permission: 'webhooks.read' },
  { href: '/settings/api-keys', label: 'API keys', permission: 'api_keys.read' },
  {
    href: '/settings/payments',
    label: 'Payments',
    permission: 'payment_providers.read',
    accessibleName: 'Payment settings',
  },
  { href: '/settings/team', label: 'Team', permission: 'members.read' },
  { href: '/settings/audit-log', label: 'Audit log', permission: 'audit_log.read' },
];

const linkClass =
  'rounded-control px-2.5 py-1.5 text-sidebar-fg no-underline hover:bg-sidebar-hover hover:text-white ' +
  'aria-[current=page]:bg-sidebar-hover aria-[current=page]:font-semibold aria-[current=page]:text-white';

export function Nav() {
  const path = usePathname();
  const { can } = useViewer();
  const settings = SETTINGS.filter((item) => can(item.permission));
  const link = (item: { href: string; label: string; accessibleName?: string }) => (
    <Link
      key={item.href}
      href={item.href}
      aria-label={item.accessibleName}
      className={linkClass}
      aria-current={(item.href === '/' ? path === '/' : path.startsWith(item.href)) ? 'page' : undefined}
    >
      {item.label}
    </Link>
  );
  return (
    <nav className="flex flex-wrap gap-1 md:flex-col md:flex-nowrap md:gap-0.5" aria-label="Main">
      {MAIN.filter((item) => can(item.permission)).map(link)}
      {/* Only the settings this viewer may open; the server refuses the others anyway. */}
      {/* A plain link: /docs is a static page of its own, outside the dashboard. */}
      <a href="/docs" className={linkClass}>
        API reference
      </a>
      {settings.length > 0 && (
        <>
          <div className="mt-3 mb-1 ml-2.5 hidden text-xs tracking-wider text-sidebar-muted uppercase md:block">
            Settings
          </div>
          {settings.map(link)}
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
