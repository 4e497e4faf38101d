'use client';
import { type FormEvent, useState } from 'react';
import { EventsPicker } from '@/app/_components/events-picker';
import { Button, Card, CardBody, CardHeader, Checkbox, Field, Input, Notice } from '@/app/_components/ui';

export interface EndpointFormValues {
  url: string;
  events: string[];
  description: string | null;
  is_active: boolean;
  rate_limit_per_second: number | null;
}

/** Create (url, events, description, rate limit, active) or edit (events, description, rate limit) an endpoint. */
export function EndpointForm({
  mode,
  initial,
  pending,
  onSubmit,
  onCancel,
}: {
  mode: 'create' | 'edit';
  initial?: Partial<EndpointFormValues>;
  pending: boolean;
  onSubmit: (values: EndpointFormValues) => void;
  onCancel: () => void;
}) {
  const [events, setEvents] = useState<string[]>(initial?.events ?? ['*']);
  const [localError, setLocalError] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    if (events.length === 0) {
      setLocalError('Pick at least one event.');
      return;
    }
    setLocalError(null);
    const description = String(data.get('description') ?? '').trim();
    const rate = String(data.get('rate_limit_per_second') ?? '').trim();
    onSubmit({
      url: String(data.get('url') ?? initial?.url ?? '').trim(),
      events,
      description: description || null,
      rate_limit_per_second: rate ? Number(rate) : null,
      is_active: mode === 'create' ? data.get('is_active') === 'on' : (initial?.is_active ?? true),
    });
  }

  return (
    <Card className="mb-6">
      <CardHeader title={mode === 'create' ? 'New endpoint' : `Edit ${initial?.url ?? 'endpoint'}`} />
      <CardBody>
        <form
          onSubmit={submit}
          aria-label={mode === 'create' ? 'New webhook endpoint' : 'Edit webhook endpoint'}
          className="flex max-w-3xl flex-col gap-4"
        >
          {mode === 'create' && (
            <Field label="Endpoint URL" hint="Receives a signed POST for each subscribed event.">
              <Input name="url" type="url" required placeholder="https://example.com/webhooks" />
            </Field>
          )}
          <Field label="Description">
            <Input name="description" maxLength={500} defaultValue={initial?.description ?? ''} />
          </Field>
          <Field
            label="Rate limit (attempts per second)"
            hint="Empty: unlimited. At most this many attempts per second reach the endpoint; the rest wait, they do not fail."
          >
            <Input
              name="rate_limit_per_second"
              type="number"
              min={1}
              max={1000}
              step={1}
              inputMode="numeric"
              placeholder="unlimited"
              className="max-w-48"
              defaultValue={initial?.rate_limit_per_second ?? ''}
            />
          </Field>
          <EventsPicker value={events} onChange={setEvents} />
          {mode === 'create' && (
            <Checkbox name="is_active" defaultChecked label="Active (deliver events now)" />
          )}
          {localError && (
            <Notice tone="error" role="alert">
              {localError}
            </Notice>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" loading={pending}>
              {mode === 'create' ? 'Create endpoint' : 'Save changes'}
            </Button>
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
