'use client';
import { useSession } from 'next-auth/react';
import { useState } from 'react';

/** Switching rewrites the session JWT; the server accepts only tenants this user belongs to. */
export function TenantPicker({
  tenants,
  current,
}: {
  tenants: { id: string; name: string; role: string }[];
  current: string | null;
}) {
  const { update } = useSession();
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
    window.location.assign('/bookings');
  }

  return (
    <>
      <ul className="tenant-list">
        {tenants.map((t) => (
          <li key={t.id}>
            <button
              type="button"
              onClick={() => choose(t.id)}
              disabled={pending !== null}
              aria-current={t.id === current}
            >
              <strong>{t.name}</strong> <span className="muted">· {t.role}</span>
              {pending === t.id && <span className="muted"> — opening…</span>}
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <p className="note note-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
