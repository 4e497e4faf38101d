'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from 'next-auth/react';

const MAIN = [
  { href: '/bookings', label: 'Bookings' },
  { href: '/conversations', label: 'Conversations' },
];
const SETTINGS = [
  { href: '/settings/webhooks', label: 'Webhooks' },
  { href: '/settings/api-keys', label: 'API keys' },
];

export function Nav({ isAdmin }: { isAdmin: boolean }) {
  const path = usePathname();
  const link = (item: { href: string; label: string }) => (
    <Link key={item.href} href={item.href} aria-current={path.startsWith(item.href) ? 'page' : undefined}>
      {item.label}
    </Link>
  );
  return (
    <nav className="nav" aria-label="Main">
      {MAIN.map(link)}
      {/* Agents never see settings; the server refuses them anyway. */}
      {isAdmin && (
        <>
          <div className="nav-heading">Settings</div>
          {SETTINGS.map(link)}
        </>
      )}
    </nav>
  );
}

export function SignOutButton() {
  return (
    <button type="button" className="small" onClick={() => signOut({ callbackUrl: '/login' })}>
      Sign out
    </button>
  );
}
