import { redirect } from 'next/navigation';
import { currentViewer, listMemberships } from '@/server/trpc/membership';
import { TenantPicker } from './tenant-picker';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Choose a tenant · Switchboard' };

export default async function SelectTenantPage() {
  const viewer = await currentViewer();
  if (!viewer) redirect('/login');
  const memberships = await listMemberships(viewer.userId);
  return (
    <main className="auth-page">
      <div className="auth-card">
        <h1>Choose a tenant</h1>
        <p className="muted">Signed in as {viewer.email}. You can switch later from the sidebar.</p>
        {memberships.length === 0 ? (
          <p className="note note-error" role="alert">
            Your account belongs to no tenant. Ask an admin to add you.
          </p>
        ) : (
          <TenantPicker
            current={viewer.tenantId}
            tenants={memberships.map((m) => ({ id: m.tenantId, name: m.tenant.name, role: m.role }))}
          />
        )}
      </div>
    </main>
  );
}
