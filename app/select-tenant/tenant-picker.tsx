'use client';
import { useSession } from 'next-auth/react';
import { useState } from 'react';
import { Notice, Spinner } from '@/app/_components/ui';

/** Switching rewrites the session JWT; the server accepts only tenants this user belongs to. */
export function TenantPicker({
  tenants,
  current,
}: {
  tenants: { id: string; name: string; role: string }[];
  current: string | null;
}) {
  // next-auth's update() does nothing until the session has loaded (this page's provider is its own).
  const { update, status } = useSession();
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function choose(tenantId: string) {
    setPending(tenantId);
    setError(null);
    const session = await update({ tenantId });
    if (session?.tenantId !== tenantId) {
      setPending(null);
      setError('You cannot open that tenant any more. Pick another one.');
      return;
    }
    window.location.assign('/');
  }

  return (
    <>
      <ul className="flex flex-col gap-2">
        {tenants.map((t) => (
          <li key={t.id}>
            <button
              type="button"
              onClick={() => choose(t.id)}
              disabled={pending !== null || status === 'loading'}
              aria-current={t.id === current}
              aria-busy={pending === t.id || undefined}
              className="flex w-full cursor-pointer items-center gap-2 rounded-control border border-border bg-panel px-3.5 py-2.5 text-left hover:border-accent disabled:cursor-progress disabled:opacity-70 aria-[current=true]:border-accent"
            >
              <span className="min-w-0 flex-1">
                <strong>{t.name}</strong> <span className="text-muted">· {t.role}</span>
              </span>
              {pending === t.id && (
                <>
                  <Spinner className="text-accent" />
                  <span className="sr-only">opening…</span>
                </>
              )}
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <Notice tone="error" role="alert" className="mt-3">
          {error}
        </Notice>
      )}
    </>
  );
}
