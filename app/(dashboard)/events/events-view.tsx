'use client';
/**
 * The event log: every event of the tenant, newest first, filtered by type or family (kept in the
 * URL with the open event, so a view can be shared), the payload as receivers get it, and the
 * deliveries the event caused with a link to each delivery's detail.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { CursorList, cursorPages } from '@/app/_components/cursor-list';
import { EventTypeSelect } from '@/app/_components/event-type-select';
import { Loading, Time } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  Code,
  CodeBlock,
  CopyButton,
  EmptyState,
  ErrorNotice,
  Field,
  PageHeader,
  StatusBadge,
  Table,
  TBody,
  Td,
  THead,
  Tr,
} from '@/app/_components/ui';
import { objectIdOf } from '@/server/client-safe/event-catalog';

export function EventsView() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const type = params.get('type') || undefined;
  const selected = params.get('event');
  const setParam = (key: string, value: string | null) => {
    const next = new URLSearchParams(params.toString());
    if (value) next.set(key, value);
    else next.delete(key);
    if (key === 'type') next.delete('event');
    const query = next.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };

  const events = useInfiniteQuery({
    ...trpc.events.listEvents.infiniteQueryOptions({ limit: 25, ...(type ? { type } : {}) }, cursorPages),
    refetchInterval: 10_000,
  });

  return (
    <>
      <PageHeader
        title="Events"
        description="Everything that happened in this tenant, as webhooks receive it."
      />
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <Field label="Type" className="w-full sm:w-72">
          <EventTypeSelect
            value={type}
            onChange={(next) => setParam('type', next || null)}
            noneLabel="All events"
          />
        </Field>
        {events.isFetching && <span className="pb-2 text-sm text-muted">Refreshing…</span>}
      </div>
      <CursorList
        query={events}
        empty={<EmptyState>{type ? `No ${type} events.` : 'No events yet.'}</EmptyState>}
      >
        {(rows) => (
          <Table aria-label="Events">
            <THead columns={['Type', 'Object', 'Created', 'Event']} actions="Details" />
            <TBody>
              {rows.map((e) => (
                <Tr key={e.id} data-testid={`event-${e.id}`} aria-selected={selected === e.id}>
                  <Td>
                    {/* The type opens the payload too: on a phone the last column is scrolled away. */}
                    <button
                      type="button"
                      className="cursor-pointer text-left text-accent underline"
                      onClick={() => setParam('event', selected === e.id ? null : e.id)}
                    >
                      <Code>{e.type}</Code>
                    </button>
                  </Td>
                  <Td>{objectIdOf(e.data) ? <Code>{objectIdOf(e.data)}</Code> : '—'}</Td>
                  <Td>
                    <Time value={e.created_at} />
                  </Td>
                  <Td>
                    <Code>{e.id}</Code>
                  </Td>
                  <Td actions>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-expanded={selected === e.id}
                      onClick={() => setParam('event', selected === e.id ? null : e.id)}
                    >
                      {selected === e.id ? 'Hide' : 'Payload'}
                    </Button>
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </CursorList>
      {selected && <EventPanel id={selected} />}
    </>
  );
}

function EventPanel({ id }: { id: string }) {
  const trpc = useTRPC();
  const event = useQuery(trpc.events.getEvent.queryOptions({ id }));
  const endpoints = useQuery(trpc.webhooks.listWebhookEndpoints.queryOptions({ limit: 100 }));
  const urlOf = (endpointId: string) =>
    endpoints.data?.data.find((e) => e.id === endpointId)?.url ?? endpointId;
  const deliveries = useQuery({
    ...trpc.webhooks.listDeliveries.queryOptions({ event_id: id, limit: 100 }),
    refetchInterval: (query) => (query.state.data?.data.some((d) => d.status === 'pending') ? 1500 : false),
  });
  const payload = event.data ? JSON.stringify(event.data, null, 2) : '';
  return (
    <Card className="mt-6" aria-labelledby="event-title" data-testid="event-panel">
      {event.isPending ? (
        <CardBody>
          <Loading />
        </CardBody>
      ) : event.error ? (
        <CardBody>
          <ErrorNotice error={event.error} />
        </CardBody>
      ) : (
        <>
          <CardHeader
            titleId="event-title"
            title={
              <span className="flex flex-wrap items-center gap-2">
                Event <Code>{event.data.id}</Code>
              </span>
            }
            description={
              <span>
                <Code>{event.data.type}</Code> · <Time value={event.data.created_at} />
              </span>
            }
            actions={<CopyButton value={payload} label="Copy payload" size="sm" variant="secondary" />}
          />
          <CardBody className="flex flex-col gap-4">
            <section aria-label="Payload">
              <h3 className="mb-1 text-sm font-semibold">Payload</h3>
              <CodeBlock data-testid="event-payload">{payload}</CodeBlock>
            </section>
            <section aria-labelledby="event-deliveries">
              <h3 id="event-deliveries" className="mb-1 text-sm font-semibold">
                Deliveries
              </h3>
              {deliveries.isPending ? (
                <Loading />
              ) : deliveries.error ? (
                <ErrorNotice error={deliveries.error} />
              ) : deliveries.data.data.length === 0 ? (
                <p className="text-sm text-muted">No endpoint subscribed to this event when it happened.</p>
              ) : (
                <Table aria-label="Deliveries of this event">
                  <THead columns={['Delivery', 'Status', 'Last response', 'Attempts', 'Endpoint']} />
                  <TBody>
                    {deliveries.data.data.map((d) => (
                      <Tr key={d.id} data-testid={`event-delivery-${d.id}`}>
                        <Td>
                          <Link href={`/settings/webhooks/${d.endpoint_id}?delivery=${d.id}`}>
                            <Code>{d.id}</Code>
                          </Link>
                        </Td>
                        <Td>
                          <StatusBadge status={d.status} />
                        </Td>
                        <Td>{d.last_attempt?.response_status ?? (d.last_attempt ? 'no answer' : '—')}</Td>
                        <Td>{d.attempt_count}</Td>
                        <Td className="max-w-xs min-w-40 break-words" data-endpoint={d.endpoint_id}>
                          {urlOf(d.endpoint_id)}
                        </Td>
                      </Tr>
                    ))}
                  </TBody>
                </Table>
              )}
            </section>
          </CardBody>
        </>
      )}
    </Card>
  );
}
