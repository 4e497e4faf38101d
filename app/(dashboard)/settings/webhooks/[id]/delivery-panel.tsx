'use client';
import { useQuery } from '@tanstack/react-query';
import { formatTime, Loading, Time } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  Code,
  CodeBlock,
  ErrorNotice,
  StatusBadge,
  Table,
  TBody,
  Td,
  THead,
  Tr,
  useFeedback,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';

/** One delivery: every attempt, the payload as sent, and Resend. */
export function DeliveryPanel({ id, onResent }: { id: string; onResent: (newId: string) => void }) {
  const trpc = useTRPC();
  const feedback = useFeedback();
  const delivery = useQuery({
    ...trpc.webhooks.getDelivery.queryOptions({ id }),
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 1000 : false),
  });
  const resend = useAction(trpc.webhooks.resendDelivery.mutationOptions(), {
    feedback,
    success: (created) => `Resent as delivery ${created.id}`,
    invalidate: [trpc.webhooks.pathKey()],
    onSuccess: (created) => onResent(created.id),
  });

  return (
    <Card className="mt-6" aria-labelledby="delivery-title" data-testid="delivery-panel">
      {delivery.isPending ? (
        <CardBody>
          <Loading />
        </CardBody>
      ) : delivery.error ? (
        <CardBody>
          <ErrorNotice error={delivery.error} />
        </CardBody>
      ) : (
        <>
          <CardHeader
            titleId="delivery-title"
            title={
              <span className="flex flex-wrap items-center gap-2">
                Delivery <Code>{delivery.data.id}</Code> <StatusBadge status={delivery.data.status} />
              </span>
            }
            actions={
              <Button loading={resend.isPending} onClick={() => resend.mutate({ id: delivery.data.id })}>
                Resend
              </Button>
            }
          />
          <CardBody className="flex flex-col gap-4">
            {feedback.node}
            <dl className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
              <dt className="text-muted">Event</dt>
              <dd className="flex flex-wrap gap-1.5">
                <Code>{delivery.data.event_type}</Code> <Code>{delivery.data.event_id}</Code>
              </dd>
              {delivery.data.next_attempt_at && (
                <>
                  <dt className="text-muted">Next attempt</dt>
                  <dd>{formatTime(delivery.data.next_attempt_at)}</dd>
                </>
              )}
            </dl>
            <section aria-labelledby="attempts-title" className="flex flex-col gap-2">
              <h3 id="attempts-title" className="font-semibold">
                Attempts
              </h3>
              {delivery.data.attempts.length === 0 ? (
                <p className="text-muted">No attempt yet.</p>
              ) : (
                <Table>
                  <THead columns={['#', 'Time', 'Result', 'Status code', 'Latency', 'Error / response']} />
                  <TBody>
                    {delivery.data.attempts.map((a) => (
                      <Tr key={a.attempt_number} data-testid={`attempt-${a.attempt_number}`}>
                        <Td>{a.attempt_number}</Td>
                        <Td>
                          <Time value={a.started_at} />
                        </Td>
                        <Td>
                          <StatusBadge status={a.succeeded ? 'succeeded' : 'failed'} />
                        </Td>
                        <Td>{a.response_status ?? '—'}</Td>
                        <Td className="whitespace-nowrap">{a.latency_ms} ms</Td>
                        <Td className="max-w-md">
                          {a.error && (
                            <div className="rounded bg-error-soft px-1.5 py-0.5 text-sm text-error">
                              {a.error}
                            </div>
                          )}
                          {a.response_excerpt && (
                            <CodeBlock compact className="mt-1">
                              {a.response_excerpt}
                            </CodeBlock>
                          )}
                        </Td>
                      </Tr>
                    ))}
                  </TBody>
                </Table>
              )}
            </section>
            <section aria-labelledby="payload-title" className="flex flex-col gap-2">
              <h3 id="payload-title" className="font-semibold">
                Payload
              </h3>
              <CodeBlock data-testid="delivery-payload">
                {JSON.stringify(delivery.data.event, null, 2)}
              </CodeBlock>
            </section>
          </CardBody>
        </>
      )}
    </Card>
  );
}
