'use client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { StatusBadge } from '@/app/_components/delivery-status';
import { ErrorNote, formatTime, Loading, LoadMore, QueryState } from '@/app/_components/feedback';
import { StatusSelect } from '@/app/_components/status-select';
import { TableHead } from '@/app/_components/table-head';
import { useTRPC } from '@/app/_components/trpc';
import { DeliveryPanel } from './delivery-panel';

const FILTERS = ['all', 'pending', 'succeeded', 'failed'] as const;
type Filter = (typeof FILTERS)[number];

export function EndpointDetail({ id, initialDelivery }: { id: string; initialDelivery: string | null }) {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<Filter>('all');
  const [selected, setSelected] = useState<string | null>(initialDelivery);
  const endpoint = useQuery(trpc.webhooks.get.queryOptions({ id }));
  const deliveries = useInfiniteQuery({
    ...trpc.webhooks.deliveries.infiniteQueryOptions(
      { endpointId: id, ...(filter === 'all' ? {} : { status: filter }) },
      { getNextPageParam: (page) => page.next_cursor },
    ),
    // Deliveries move on their own (retries); poll faster while any is still pending.
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.data.some((d) => d.status === 'pending')) ? 1500 : 10_000,
  });
  const rows = deliveries.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <>
      <p>
        <Link href="/settings/webhooks">← Webhooks</Link>
      </p>
      {endpoint.isPending ? (
        <Loading />
      ) : endpoint.error ? (
        <ErrorNote error={endpoint.error} />
      ) : (
        <div className="page-head">
          <div>
            <h1 style={{ wordBreak: 'break-all' }}>{endpoint.data.url}</h1>
            <p className="muted">
              <span className={`badge ${endpoint.data.is_active ? 'badge-active' : 'badge-disabled'}`}>
                {endpoint.data.is_active ? 'active' : 'disabled'}
              </span>{' '}
              <code>{endpoint.data.events.join(', ')}</code>
              {endpoint.data.description ? ` · ${endpoint.data.description}` : ''}
            </p>
          </div>
        </div>
      )}

      <h2>Deliveries</h2>
      <div className="row" style={{ marginBottom: '0.75rem' }}>
        <StatusSelect id="status-filter" value={filter} options={FILTERS} onChange={setFilter} />
        {deliveries.isFetching && <span className="muted">Refreshing…</span>}
      </div>
      <QueryState
        query={deliveries}
        rows={rows}
        empty={<p className="empty">No {filter === 'all' ? '' : `${filter} `}deliveries yet.</p>}
      >
        {() => (
          <table>
            <TableHead columns={['Delivery', 'Event', 'Status', 'Attempts', 'Created']} hidden="Details" />
            <tbody>
              {rows.map((d) => (
                <tr key={d.id} data-testid={`delivery-${d.id}`} aria-selected={selected === d.id}>
                  <td>
                    <code>{d.id}</code>
                    {d.resend_of_id && <div className="muted">resend of {d.resend_of_id}</div>}
                  </td>
                  <td>
                    <code>{d.event_type}</code>
                  </td>
                  <td>
                    <StatusBadge status={d.status} />
                  </td>
                  <td>{d.attempt_count}</td>
                  <td>{formatTime(d.created_at)}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="small secondary"
                      aria-expanded={selected === d.id}
                      onClick={() => setSelected(selected === d.id ? null : d.id)}
                    >
                      {selected === d.id ? 'Hide' : 'Details'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
      <LoadMore query={deliveries} />
      {selected && <DeliveryPanel id={selected} onResent={(newId) => setSelected(newId)} />}
    </>
  );
}
