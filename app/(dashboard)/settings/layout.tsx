import type { ReactNode } from 'react';
import { currentViewer } from '@/server/trpc/membership';

/** Settings are for admins (CONTRACT §9); the tRPC routers enforce the same rule on every call. */
export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const viewer = await currentViewer();
  if (viewer?.role !== 'admin') {
    return (
      <section className="panel" aria-labelledby="forbidden-title">
        <h1 id="forbidden-title">Admins only</h1>
        <p className="muted">
          403 — your role ({viewer?.role ?? 'none'}) cannot open settings. Ask an admin of this tenant.
        </p>
      </section>
    );
  }
  return children;
}
