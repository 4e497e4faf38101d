'use client';
/**
 * "Recover failed deliveries since …" (POST /webhooks/{id}/recover): pick a time, see how many
 * failed deliveries a dry run finds, then confirm; they go back to pending as the same deliveries
 * (same webhook-id) with a new round of attempts. Refused while the endpoint is disabled.
 */
import { useState } from 'react';
import { useTRPC } from '@/app/_components/trpc';
import { Button, Card, CardBody, CardHeader, Field, Input, Notice, useFeedback } from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';

/** `datetime-local` value (local time, minutes) of a date. */
function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function RecoverFailed({ id, active }: { id: string; active: boolean }) {
  const trpc = useTRPC();
  const feedback = useFeedback();
  const [since, setSince] = useState(() => localInput(new Date(Date.now() - 86_400_000)));
  /** The dry run's answer, for the `since` it was asked with. */
  const [preview, setPreview] = useState<{ since: string; count: number } | null>(null);
  const sinceIso = () => new Date(since).toISOString();

  const dryRun = useAction(trpc.webhooks.recoverWebhookDeliveries.mutationOptions(), {
    feedback,
    onSuccess: (result) => setPreview({ since, count: result.count }),
  });
  const recover = useAction(trpc.webhooks.recoverWebhookDeliveries.mutationOptions(), {
    feedback,
    success: (result) =>
      `${result.count} ${result.count === 1 ? 'delivery' : 'deliveries'} requeued: they are being delivered again.`,
    onSuccess: () => setPreview(null),
    invalidate: [trpc.webhooks.pathKey()],
  });
  const validSince = since !== '' && !Number.isNaN(new Date(since).getTime());
  const current = preview && preview.since === since ? preview : null;

  return (
    <Card className="mt-6" aria-labelledby="recover-title">
      <CardHeader
        titleId="recover-title"
        title="Recover failed deliveries"
        description="Requeues every failed delivery created since the time you pick: the same deliveries (same webhook-id, so receivers deduplicate) get a new round of attempts."
      />
      <CardBody>
        {feedback.node}
        {!active && (
          <Notice tone="info" className="mb-3">
            Re-enable the endpoint first: a disabled endpoint would fail them again.
          </Notice>
        )}
        <form
          aria-label="Recover failed deliveries"
          className="flex flex-col gap-3 sm:flex-row sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            if (validSince) dryRun.mutate({ id, since: sinceIso(), dry_run: true });
          }}
        >
          <Field label="Failed since" className="sm:max-w-64">
            <Input
              name="since"
              type="datetime-local"
              required
              value={since}
              max={localInput(new Date())}
              onChange={(event) => setSince(event.target.value)}
            />
          </Field>
          <Button
            type="submit"
            variant="secondary"
            loading={dryRun.isPending}
            disabled={!active || !validSince}
          >
            Count failed deliveries
          </Button>
        </form>
        {current && (
          <div
            data-testid="recover-preview"
            className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between"
          >
            <p className="text-sm" role="status">
              {current.count === 0
                ? 'No failed deliveries since then.'
                : `${current.count} failed ${current.count === 1 ? 'delivery' : 'deliveries'} since then will be requeued.`}
            </p>
            {current.count > 0 && (
              <Button
                loading={recover.isPending}
                disabled={!active}
                onClick={() => recover.mutate({ id, since: sinceIso() })}
              >
                Recover {current.count} {current.count === 1 ? 'delivery' : 'deliveries'}
              </Button>
            )}
          </div>
        )}
      </CardBody>
    </Card>
  );
}
