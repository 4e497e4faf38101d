'use client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { CursorList, cursorPages } from '@/app/_components/cursor-list';
import { DeliveryFilterBar, useDeliveryFilters } from '@/app/_components/delivery-filters';
import { Time } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Code,
  EmptyState,
  StatusBadge,
  Table,
  TBody,
  Td,
  THead,
  Tr,
  useFeedback,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';

/** Deliveries that used up every attempt, across all endpoints (docs/architecture.md "Webhook delivery"). */
export function FailedDeliveries() {
  const trpc = useTRPC();
  const { filters, active } = useDeliveryFilters();
  // Deliveries fail in the background (after their last retry), so the list keeps itself current.
  const failed = useInfiniteQuery({
    ...trpc.webhooks.listDeliveries.infiniteQueryOptions(
      { ...filters, limit: 50, status: 'failed' },
      cursorPages,
    ),
    refetchInterval: 3000,
  });
  const endpoints = useQuery(trpc.webhooks.listWebhookEndpoints.queryOptions({ limit: 100 }));
  const feedback = useFeedback();
  const resend = useAction(trpc.webhooks.resendDelivery.mutationOptions(), {
    feedback,
    success: (delivery) => `Resent as delivery ${delivery.id}`,
    invalidate: [trpc.webhooks.pathKey()],
  });
  const urlOf = (id: string) => endpoints.data?.data.find((e) => e.id === id)?.url ?? id;

  return (
    <>
      {feedback.node}
      <DeliveryFilterBar endpoints={endpoints.data?.data} hide={['status']} />
      <CursorList
        query={failed}
        empty={
          <EmptyState>
            {active ? 'No failed deliveries match these filters.' : 'No failed deliveries.'}
          </EmptyState>
        }
      >
        {(rows) => (
          <Table>
            <THead
              columns={['Delivery', 'Event', 'Endpoint', 'Attempts', 'Last attempt']}
              actions="Actions"
            />
            <TBody>
              {rows.map((d) => (
                <Tr key={d.id} data-testid={`failed-${d.id}`}>
                  <Td>
                    <Link href={`/settings/webhooks/${d.endpoint_id}?delivery=${d.id}`}>
                      <Code>{d.id}</Code>
                    </Link>{' '}
                    <StatusBadge status={d.status} />
                  </Td>
                  <Td>
                    <Code>{d.event_type}</Code>
                  </Td>
                  <Td className="max-w-xs min-w-40 break-words">{urlOf(d.endpoint_id)}</Td>
                  <Td>{d.attempt_count}</Td>
                  <Td>
                    <Time value={d.last_attempt_at} />
                  </Td>
                  <Td actions>
                    <Button size="sm" disabled={resend.isPending} onClick={() => resend.mutate({ id: d.id })}>
                      Resend
                    </Button>
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </CursorList>
    </>
  );
}
