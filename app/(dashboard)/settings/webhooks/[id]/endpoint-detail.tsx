'use client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { CursorList, cursorPages } from '@/app/_components/cursor-list';
import { DeliveryFilterBar, useDeliveryFilters } from '@/app/_components/delivery-filters';
import { Loading, Time } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Code,
  EmptyState,
  ErrorNotice,
  PageHeader,
  SectionHeader,
  StatusBadge,
  Table,
  TBody,
  Td,
  THead,
  Tr,
} from '@/app/_components/ui';
import { DeliveryPanel } from './delivery-panel';
import { DisabledBanner } from './disabled-banner';
import { EndpointChart } from './endpoint-chart';
import { ReceiverCheck } from './receiver-check';
import { RecoverFailed } from './recover-failed';

export function EndpointDetail({ id, initialDelivery }: { id: string; initialDelivery: string | null }) {
  const trpc = useTRPC();
  const { filters, active } = useDeliveryFilters();
  const [selected, setSelected] = useState<string | null>(initialDelivery);
  const endpoint = useQuery(trpc.webhooks.getWebhookEndpoint.queryOptions({ id }));
  const deliveries = useInfiniteQuery({
    ...trpc.webhooks.listWebhookDeliveries.infiniteQueryOptions({ ...filters, limit: 50, id }, cursorPages),
    // Deliveries move on their own (retries); poll faster while any is still pending.
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.data.some((d) => d.status === 'pending')) ? 1500 : 10_000,
  });

  return (
    <>
      <p className="mb-3 text-sm">
        <Link href="/settings/webhooks">← Webhooks</Link>
      </p>
      {endpoint.isPending ? (
        <Loading />
      ) : endpoint.error ? (
        <ErrorNotice error={endpoint.error} />
      ) : (
        <PageHeader
          title={endpoint.data.url}
          description={
            <span className="flex flex-wrap items-center gap-2">
              <StatusBadge status={endpoint.data.is_active ? 'active' : 'disabled'} />
              <Code>{endpoint.data.events.join(', ')}</Code>
              {endpoint.data.description && <span>{endpoint.data.description}</span>}
            </span>
          }
        />
      )}

      {endpoint.data && <DisabledBanner endpoint={endpoint.data} />}
      <EndpointChart id={id} />
      <ReceiverCheck id={id} />
      {endpoint.data && <RecoverFailed id={id} active={endpoint.data.is_active} />}

      <SectionHeader
        className="mt-6"
        title="Deliveries"
        actions={deliveries.isFetching && <span className="text-sm text-muted">Refreshing…</span>}
      />
      <DeliveryFilterBar />
      <CursorList
        query={deliveries}
        empty={
          <EmptyState>{active ? 'No deliveries match these filters.' : 'No deliveries yet.'}</EmptyState>
        }
      >
        {(rows) => (
          <Table>
            <THead columns={['Delivery', 'Event', 'Status', 'Attempts', 'Created']} actions="Details" />
            <TBody>
              {rows.map((d) => (
                <Tr key={d.id} data-testid={`delivery-${d.id}`} aria-selected={selected === d.id}>
                  <Td>
                    <Code>{d.id}</Code>
                    {d.resend_of_id && (
                      <div className="mt-1 text-sm text-muted">resend of {d.resend_of_id}</div>
                    )}
                  </Td>
                  <Td>
                    <Code>{d.event_type}</Code>
                  </Td>
                  <Td>
                    <StatusBadge status={d.status} />
                  </Td>
                  <Td>{d.attempt_count}</Td>
                  <Td>
                    <Time value={d.created_at} />
                  </Td>
                  <Td actions>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-expanded={selected === d.id}
                      onClick={() => setSelected(selected === d.id ? null : d.id)}
                    >
                      {selected === d.id ? 'Hide' : 'Details'}
                    </Button>
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </CursorList>
      {selected && <DeliveryPanel id={selected} onResent={(newId) => setSelected(newId)} />}
    </>
  );
}
