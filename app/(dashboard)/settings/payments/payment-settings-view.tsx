'use client';
/**
 * Settings > Payments: the tenant's Stripe account. Connecting sends the secret key and the webhook
 * signing secret (checked with Stripe; its refusal is shown at the field it names); once connected the
 * page shows the account, when it was connected, the hints of both secrets and the webhook URL to add
 * in Stripe, and lets an admin replace the keys or disconnect (with confirmation).
 */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { QueryState, Time } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import {
  Badge,
  Button,
  Card,
  CardBody,
  CardHeader,
  Code,
  ConfirmDialog,
  CopyButton,
  EmptyState,
  Field,
  Input,
  Notice,
  PageHeader,
  useFeedback,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';
import { useViewer } from '@/app/_components/viewer';

/** The events the Stripe webhook endpoint must send (as the API reference lists them). */
const STRIPE_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'charge.refunded',
];

type FieldErrors = Partial<Record<'secret_key' | 'webhook_secret', string>>;

/** The field problems of a tRPC error (422: validation or Stripe's refusal), by field name. */
function fieldErrorsOf(error: unknown): FieldErrors {
  const fields = (error as { data?: { fieldErrors?: { path: string; message: string }[] | null } } | null)
    ?.data?.fieldErrors;
  const found: FieldErrors = {};
  for (const f of fields ?? []) {
    if (f.path === 'secret_key' || f.path === 'webhook_secret') found[f.path] ??= f.message;
  }
  return found;
}

export function PaymentSettingsView() {
  const trpc = useTRPC();
  const canChange = useViewer().can('payment_providers.write');
  const providers = useQuery(trpc.paymentProviders.listPaymentProviders.queryOptions());
  const feedback = useFeedback();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [editing, setEditing] = useState(false);
  const invalidate = [trpc.paymentProviders.pathKey()];

  const connect = useAction(trpc.paymentProviders.connectStripe.mutationOptions(), {
    feedback,
    success: (c) => `Stripe account ${c.account_id} connected`,
    invalidate,
    onSuccess: () => {
      setErrors({});
      setEditing(false);
    },
  });
  const disconnect = useAction(trpc.paymentProviders.disconnectStripe.mutationOptions(), {
    feedback,
    success: 'Stripe disconnected',
    invalidate,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = {
      secret_key: String(data.get('secret_key') ?? '').trim(),
      webhook_secret: String(data.get('webhook_secret') ?? '').trim(),
    };
    const missing: FieldErrors = {};
    if (!input.secret_key) missing.secret_key = 'Paste the secret key (sk_test_… or sk_live_…)';
    if (!input.webhook_secret) missing.webhook_secret = 'Paste the signing secret (whsec_…)';
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    connect.mutate(input, {
      onError: (error) => {
        const atFields = fieldErrorsOf(error);
        setErrors(atFields);
        // Shown at the fields it names, not twice.
        if (Object.keys(atFields).length > 0) feedback.clear();
      },
    });
  }

  const webhookUrl = (url: string) => (
    <div className="flex min-w-0 flex-col gap-2 sm:flex-row sm:items-center">
      <Code className="break-all" data-testid="stripe-webhook-url">
        {url}
      </Code>
      <CopyButton value={url} size="sm" variant="secondary" label="Copy URL" />
    </div>
  );
  const instructions = (
    <Notice tone="info">
      In Stripe (Developers › Webhooks) add the webhook URL as an endpoint for the events{' '}
      {STRIPE_EVENTS.map((e, i) => (
        <span key={e}>
          {i > 0 && ', '}
          <Code>{e}</Code>
        </span>
      ))}
      ; its signing secret (whsec_…) goes in the form.
    </Notice>
  );

  const form = (replacing: boolean) => (
    <form
      onSubmit={submit}
      noValidate
      aria-label={replacing ? 'Replace the Stripe keys' : 'Connect Stripe'}
      className="flex max-w-2xl flex-col gap-4"
    >
      <Field
        label="Secret key"
        hint="Stripe Dashboard › Developers › API keys. A restricted key (rk_…) works too. Stored encrypted, never shown again."
        error={errors.secret_key}
      >
        <Input
          name="secret_key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="sk_live_…"
        />
      </Field>
      <Field
        label="Webhook signing secret"
        hint="The signing secret (whsec_…) of the Stripe webhook endpoint that points at the webhook URL shown here."
        error={errors.webhook_secret}
      >
        <Input
          name="webhook_secret"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="whsec_…"
        />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={connect.isPending}>
          {replacing ? 'Verify and replace keys' : 'Verify and connect'}
        </Button>
        {replacing && (
          <Button
            type="button"
            variant="secondary"
            onClick={() => {
              setEditing(false);
              setErrors({});
            }}
          >
            Cancel
          </Button>
        )}
      </div>
    </form>
  );

  return (
    <>
      <PageHeader
        title="Payments"
        description="Take deposits and prices of paid services through your own Stripe account."
      />
      {feedback.node}
      <QueryState query={providers} rows={providers.data ? [providers.data] : undefined} empty={null}>
        {([list]) => {
          const stripe = list.data.find((p) => p.provider === 'stripe');
          if (!stripe) {
            return (
              <Card>
                <CardHeader
                  title="Stripe"
                  description="Not connected. Bookings of services with a deposit or full payment are refused until it is."
                />
                <CardBody className="flex flex-col gap-4">
                  <div className="flex flex-col gap-1 text-sm">
                    <span className="font-semibold">Webhook URL</span>
                    {webhookUrl(list.stripe_webhook_url)}
                  </div>
                  {instructions}
                  {canChange ? form(false) : <EmptyState>Only an admin can connect Stripe.</EmptyState>}
                </CardBody>
              </Card>
            );
          }
          return (
            <Card data-testid="stripe-connection">
              <CardHeader
                title={
                  <span className="flex flex-wrap items-center gap-2">
                    Stripe <Badge tone="ok">connected</Badge>
                    {!stripe.livemode && <Badge tone="warn">test mode</Badge>}
                  </span>
                }
                actions={
                  canChange && (
                    <>
                      {!editing && (
                        <Button size="sm" variant="secondary" onClick={() => setEditing(true)}>
                          Replace keys
                        </Button>
                      )}
                      <ConfirmDialog
                        trigger={
                          <Button size="sm" variant="danger" disabled={disconnect.isPending}>
                            Disconnect
                          </Button>
                        }
                        title="Disconnect Stripe?"
                        description="Both secrets are deleted. New bookings of paid services are refused (409) until Stripe is connected again, and Stripe's webhooks to this URL are refused. Payments already made stay at Stripe."
                        confirmLabel="Disconnect"
                        destructive
                        onConfirm={() => disconnect.mutateAsync()}
                      />
                    </>
                  )
                }
              />
              <CardBody>
                <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
                  <dt className="font-semibold">Account</dt>
                  <dd className="min-w-0">
                    <Code>{stripe.account_id}</Code>
                  </dd>
                  <dt className="font-semibold">Connected</dt>
                  <dd>
                    <Time value={stripe.connected_at} />
                  </dd>
                  <dt className="font-semibold">Secret key</dt>
                  <dd>
                    <Code>…{stripe.secret_key_last4}</Code>
                  </dd>
                  <dt className="font-semibold">Webhook signing secret</dt>
                  <dd>
                    <Code>…{stripe.webhook_secret_last4}</Code>
                  </dd>
                  <dt className="font-semibold">Webhook URL</dt>
                  <dd className="min-w-0">{webhookUrl(stripe.webhook_url)}</dd>
                </dl>
                <div className="mt-4">{instructions}</div>
                {editing && canChange && <div className="mt-6">{form(true)}</div>}
              </CardBody>
            </Card>
          );
        }}
      </QueryState>
    </>
  );
}
