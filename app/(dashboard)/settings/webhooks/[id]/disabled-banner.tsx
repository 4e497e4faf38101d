'use client';
/**
 * On a disabled endpoint's page: why it is disabled and since when (the service disables an endpoint
 * whose attempts keep failing, docs/operations.md "Webhook operations"), and a one-click "Re-enable", which also clears the
 * failure streak. Failed deliveries stay failed: "Recover failed deliveries" requeues them.
 */
import { Time } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import { Button, Notice, useFeedback } from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';

export interface DisabledEndpoint {
  id: string;
  is_active: boolean;
  disabled_reason: 'failing' | null;
  disabled_at: string | null;
}

export function DisabledBanner({ endpoint }: { endpoint: DisabledEndpoint }) {
  const trpc = useTRPC();
  const feedback = useFeedback();
  const enable = useAction(trpc.webhooks.updateWebhookEndpoint.mutationOptions(), {
    feedback,
    success:
      'Endpoint re-enabled: new events are delivered again. Deliveries that failed meanwhile stay failed; recover them below.',
    invalidate: [trpc.webhooks.pathKey()],
  });

  return (
    <div className="mt-4">
      {feedback.node}
      {!endpoint.is_active && (
        <Notice tone={endpoint.disabled_reason ? 'error' : 'warn'} role="status" className="mb-3">
          <div
            data-testid="disabled-banner"
            className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between"
          >
            <div>
              <p className="font-semibold">
                {endpoint.disabled_reason === 'failing'
                  ? 'Disabled by Switchboard: its deliveries kept failing'
                  : 'This endpoint is disabled'}
              </p>
              <p className="mt-1">
                {endpoint.disabled_reason === 'failing' ? (
                  <>
                    Disabled <Time value={endpoint.disabled_at} /> after too many failed attempts in a row.
                    Its pending deliveries were marked failed, and it receives nothing until it is re-enabled.
                  </>
                ) : (
                  'It receives nothing until it is re-enabled.'
                )}
              </p>
            </div>
            <Button
              className="shrink-0"
              loading={enable.isPending}
              onClick={() => enable.mutate({ id: endpoint.id, is_active: true })}
            >
              Re-enable
            </Button>
          </div>
        </Notice>
      )}
    </div>
  );
}
