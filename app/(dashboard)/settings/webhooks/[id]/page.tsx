import { PermissionGate } from '@/app/(dashboard)/permission-gate';
import { EndpointDetail } from './endpoint-detail';

export const metadata = { title: 'Webhook endpoint · Switchboard' };

export default async function EndpointPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ delivery?: string }>;
}) {
  const { id } = await params;
  const { delivery } = await searchParams;
  return (
    <PermissionGate permission="webhooks.read">
      <EndpointDetail id={id} initialDelivery={typeof delivery === 'string' ? delivery : null} />
    </PermissionGate>
  );
}
