'use client';
/**
 * The dashboard's sidebar: brand, navigation and the account's links. From `md` up it is a column
 * beside the page. Below `md` (a phone) it is a header bar whose one "Menu" button opens the
 * navigation under it (a disclosure: aria-expanded; the first link takes focus, Escape closes it and
 * gives focus back to the button, following a link closes it).
 */
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from 'next-auth/react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import type { Permission } from '@/server/client-safe/permissions';
import { useViewer } from './viewer';

interface NavItem {
  href: string;
  label: string;
  /** Shown to those who may read what the page shows. */
  permission: Permission;
}

const MAIN: NavItem[] = [
  { href: '/', label: 'Overview', permission: 'overview.read' },
  { href: '/bookings', label: 'Bookings', permission: 'bookings.read' },
  { href: '/conversations', label: 'Conversations', permission: 'conversations.read' },
  { href: '/payments', label: 'Payments', permission: 'payments.read' },
  { href: '/events', label: 'Events', permission: 'events.read' },
];
/**
 * Settings pages, each behind the permission its page needs (its page's PermissionGate checks the
 * same). Each label stands on its own: "Payment settings" is not the "Payments" above.
 */
const SETTINGS: NavItem[] = [
  { href: '/settings/resources', label: 'Resources', permission: 'resources.read' },
  { href: '/settings/services', label: 'Services', permission: 'services.read' },
  { href: '/settings/webhooks', label: 'Webhooks', permission: 'webhooks.read' },
  { href: '/settings/api-keys', label: 'API keys', permission: 'api_keys.read' },
  { href: '/settings/payments', label: 'Payment settings', permission: 'payment_providers.read' },
  { href: '/settings/team', label: 'Team', permission: 'members.read' },
  { href: '/settings/audit-log', label: 'Audit log', permission: 'audit_log.read' },
];

const linkClass =
  'block rounded-control px-2.5 py-2 text-sidebar-fg no-underline hover:bg-sidebar-hover hover:text-white md:py-1.5 ' +
  'aria-[current=page]:bg-sidebar-hover aria-[current=page]:font-semibold aria-[current=page]:text-white';

export function Sidebar({ brand, account }: { brand: ReactNode; account: ReactNode }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const path = usePathname();

  // Following a link closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the path changes
  useEffect(() => setOpen(false), [path]);

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <>
      <div className="flex items-center justify-between gap-3">
        {brand}
        <button
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((was) => !was)}
          className="inline-flex min-h-11 shrink-0 cursor-pointer items-center gap-2 rounded-control border border-[#3a4454] px-3 text-sm text-sidebar-fg hover:bg-sidebar-hover md:hidden"
        >
          <MenuIcon open={open} />
          Menu
        </button>
      </div>
      <div
        ref={panel}
        id={menuId}
        className={`${open ? 'flex' : 'hidden'} flex-1 flex-col gap-4 md:flex`}
        data-testid="dashboard-menu"
      >
        <Nav />
        {account}
      </div>
    </>
  );
}

function Nav() {
  const path = usePathname();
  const { can } = useViewer();
  const settings = SETTINGS.filter((item) => can(item.permission));
  const headingId = useId();
  const link = (item: { href: string; label: string }) => (
    <li key={item.href}>
      <Link
        href={item.href}
        className={linkClass}
        aria-current={(item.href === '/' ? path === '/' : path.startsWith(item.href)) ? 'page' : undefined}
      >
        {item.label}
      </Link>
    </li>
  );
  return (
    <nav aria-label="Main" className="flex flex-col gap-3">
      <ul className="flex flex-col gap-0.5">
        {MAIN.filter((item) => can(item.permission)).map(link)}
        {/* A plain link: /docs is a static page of its own, outside the dashboard. */}
        <li>
          <a href="/docs" className={linkClass}>
            API reference
          </a>
        </li>
      </ul>
      {/* Only the settings this viewer may open; the server refuses the others anyway. */}
      {settings.length > 0 && (
        <div>
          <p id={headingId} className="mb-1 ml-2.5 text-xs tracking-wider text-sidebar-muted uppercase">
            Settings
          </p>
          <ul aria-labelledby={headingId} className="flex flex-col gap-0.5">
            {settings.map(link)}
          </ul>
        </div>
      )}
    </nav>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true" fill="none" stroke="currentColor">
      {open ? (
        <path d="M4 4l10 10M14 4L4 14" strokeWidth="1.8" strokeLinecap="round" />
      ) : (
        <path d="M3 5h12M3 9h12M3 13h12" strokeWidth="1.8" strokeLinecap="round" />
      )}
    </svg>
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
