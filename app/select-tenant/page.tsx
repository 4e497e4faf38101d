import { redirect } from 'next/navigation';
import { AuthCard } from '@/app/_components/auth-card';
import { Notice } from '@/app/_components/ui';
import { currentViewer, listMemberships } from '@/server/trpc/membership';
import { TenantPicker } from './tenant-picker';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Choose a tenant · Switchboard' };

export default async function SelectTenantPage() {
  const viewer = await currentViewer();
  if (!viewer) redirect('/login');
  const memberships = await listMemberships(viewer.userId);
  return (
    <AuthCard title="Choose a tenant">
      <p className="mb-4 text-muted">Signed in as {viewer.email}. You can switch later from the sidebar.</p>
      {memberships.length === 0 ? (
        <Notice tone="error" role="alert">
          Your account belongs to no tenant. Ask an admin to add you.
        </Notice>
      ) : (
        <TenantPicker
          current={viewer.tenantId}
          tenants={memberships.map((m) => ({ id: m.tenantId, name: m.tenant.name, role: m.role }))}
        />
      )}
    </AuthCard>
  );
}
