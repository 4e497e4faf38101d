'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { QueryState, SecretOnce } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Code,
  ConfirmDialog,
  EmptyState,
  PageHeader,
  StatusBadge,
  Table,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  TBody,
  Td,
  THead,
  Tr,
  useFeedback,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';
import { EndpointForm } from './endpoint-form';
import { FailedDeliveries } from './failed-deliveries';

export function WebhooksView() {
  // The tab is in the URL (?view=failed), with the failed list's filters, so the view can be shared.
  const params = useSearchParams();
  const router = useRouter();
  const view = params.get('view') === 'failed' ? 'failed' : 'endpoints';
  const show = (next: string) =>
    router.replace(next === 'failed' ? '/settings/webhooks?view=failed' : '/settings/webhooks', {
      scroll: false,
    });
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Signed HTTP callbacks for events in this tenant (Standard Webhooks signatures)."
      />
      <Tabs value={view} onValueChange={show}>
        <TabsList aria-label="Webhook views">
          <TabsTrigger value="endpoints">Endpoints</TabsTrigger>
          <TabsTrigger value="failed">Failed deliveries</TabsTrigger>
        </TabsList>
        <TabsContent value="endpoints">
          <Endpoints />
        </TabsContent>
        <TabsContent value="failed">
          <FailedDeliveries />
        </TabsContent>
      </Tabs>
    </>
  );
}

function Endpoints() {
  const trpc = useTRPC();
  const endpoints = useQuery(trpc.webhooks.listWebhookEndpoints.queryOptions({}));
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const feedback = useFeedback();
  const invalidate = [trpc.webhooks.pathKey()];

  const create = useAction(trpc.webhooks.createWebhookEndpoint.mutationOptions(), {
    feedback,
    success: 'Endpoint created',
    invalidate,
    onSuccess: (endpoint) => {
      setCreating(false);
      setSecret({ label: `Signing secret for ${endpoint.url}`, value: endpoint.webhook_secret });
    },
  });
  const update = useAction(trpc.webhooks.updateWebhookEndpoint.mutationOptions(), {
    feedback,
    success: (endpoint, input) =>
      input.is_active === undefined
        ? 'Endpoint updated'
        : `Endpoint ${endpoint.is_active ? 'enabled' : 'disabled'}`,
    invalidate,
    onSuccess: () => setEditing(null),
  });
  const remove = useAction(trpc.webhooks.deleteWebhookEndpoint.mutationOptions(), {
    feedback,
    success: 'Endpoint deleted',
    invalidate,
  });
  const rotate = useAction(trpc.webhooks.rotateWebhookSecret.mutationOptions(), {
    feedback,
    success: 'Secret rotated',
    onSuccess: (result) =>
      setSecret({
        label: 'New signing secret (the old one also signs for 24 hours)',
        value: result.webhook_secret,
      }),
  });
  const sendTest = useAction(trpc.webhooks.sendWebhookTestEvent.mutationOptions(), {
    feedback,
    success: (result) => `Test event ${result.event.id} queued as delivery ${result.delivery.id}`,
    invalidate,
  });

  const editingEndpoint = endpoints.data?.data.find((e) => e.id === editing);

  return (
    <>
      {feedback.node}
      {secret && <SecretOnce label={secret.label} value={secret.value} onDone={() => setSecret(null)} />}
      {creating ? (
        <EndpointForm
          mode="create"
          pending={create.isPending}
          onSubmit={(values) => create.mutate(values)}
          onCancel={() => {
            setCreating(false);
            create.reset();
            feedback.clear();
          }}
        />
      ) : (
        <div className="mb-4">
          <Button onClick={() => setCreating(true)}>Add endpoint</Button>
        </div>
      )}
      {editingEndpoint && (
        <EndpointForm
          key={editingEndpoint.id}
          mode="edit"
          initial={editingEndpoint}
          pending={update.isPending}
          onSubmit={(values) =>
            update.mutate({
              id: editingEndpoint.id,
              events: values.events,
              description: values.description,
              rate_limit_per_second: values.rate_limit_per_second,
            })
          }
          onCancel={() => setEditing(null)}
        />
      )}

      <QueryState
        query={endpoints}
        rows={endpoints.data?.data}
        empty={<EmptyState>No endpoints yet. Add one to receive events.</EmptyState>}
      >
        {(items) => (
          <Table>
            <THead columns={['Endpoint', 'Events', 'State', 'Success (24 h)']} actions="Actions" />
            <TBody>
              {items.map((e) => (
                <Tr key={e.id} data-testid={`endpoint-${e.id}`}>
                  <Td className="max-w-xs min-w-40 break-words">
                    <Link href={`/settings/webhooks/${e.id}`}>{e.url}</Link>
                    {e.description && <div className="text-sm text-muted">{e.description}</div>}
                  </Td>
                  <Td>
                    <Code>{e.events.join(', ')}</Code>
                  </Td>
                  <Td>
                    <StatusBadge status={e.is_active ? 'active' : 'disabled'} />
                  </Td>
                  <Td>
                    {e.recent_success_rate === null ? (
                      <span className="text-muted">no attempts</span>
                    ) : (
                      `${Math.round(e.recent_success_rate * 100)}% of ${e.recent_attempts}`
                    )}
                  </Td>
                  <Td actions>
                    <Button
                      size="sm"
                      disabled={sendTest.isPending || !e.is_active}
                      title={e.is_active ? undefined : 'Enable the endpoint to send a test event'}
                      onClick={() => sendTest.mutate({ id: e.id })}
                    >
                      Send test
                    </Button>
                    <Button size="sm" variant="secondary" onClick={() => setEditing(e.id)}>
                      Edit
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={update.isPending}
                      onClick={() => update.mutate({ id: e.id, is_active: !e.is_active })}
                    >
                      {e.is_active ? 'Disable' : 'Enable'}
                    </Button>
                    <ConfirmDialog
                      trigger={
                        <Button size="sm" variant="secondary" disabled={rotate.isPending}>
                          Rotate secret
                        </Button>
                      }
                      title="Rotate the signing secret?"
                      description={`${e.url} gets a new secret now. The old secret keeps signing for 24 hours, so update the receiver within a day.`}
                      confirmLabel="Rotate secret"
                      onConfirm={() => rotate.mutateAsync({ id: e.id })}
                    />
                    <ConfirmDialog
                      trigger={
                        <Button size="sm" variant="danger" disabled={remove.isPending}>
                          Delete
                        </Button>
                      }
                      title="Delete this endpoint?"
                      description={`${e.url} stops receiving events at once. Its delivery history is deleted with it.`}
                      confirmLabel="Delete endpoint"
                      destructive
                      onConfirm={() => remove.mutateAsync({ id: e.id })}
                    />
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </QueryState>
    </>
  );
}
