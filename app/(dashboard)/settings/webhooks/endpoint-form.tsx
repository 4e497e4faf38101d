'use client';
import { type FormEvent, useState } from 'react';
import { EventsPicker } from '@/app/_components/events-picker';

export interface EndpointFormValues {
  url: string;
  events: string[];
  description: string | null;
  is_active: boolean;
}

/** Create (url, events, description, active) or edit (events, description) an endpoint. */
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
    onSubmit({
      url: String(data.get('url') ?? initial?.url ?? '').trim(),
      events,
      description: description || null,
      is_active: mode === 'create' ? data.get('is_active') === 'on' : (initial?.is_active ?? true),
    });
  }

  return (
    <form
      className="panel"
      onSubmit={submit}
      aria-label={mode === 'create' ? 'New webhook endpoint' : 'Edit webhook endpoint'}
    >
      <h2 style={{ marginTop: 0 }}>
        {mode === 'create' ? 'New endpoint' : `Edit ${initial?.url ?? 'endpoint'}`}
      </h2>
      {mode === 'create' && (
        <div className="field">
          <label htmlFor="endpoint-url">Endpoint URL</label>
          <input
            id="endpoint-url"
            name="url"
            type="url"
            required
            placeholder="https://example.com/webhooks"
          />
        </div>
      )}
      <div className="field">
        <label htmlFor="endpoint-description">Description</label>
        <input
          id="endpoint-description"
          name="description"
          type="text"
          maxLength={500}
          defaultValue={initial?.description ?? ''}
        />
      </div>
      <EventsPicker value={events} onChange={setEvents} />
      {mode === 'create' && (
        <div className="field field-inline">
          <input id="endpoint-active" name="is_active" type="checkbox" defaultChecked />
          <label htmlFor="endpoint-active" style={{ margin: 0, fontWeight: 400 }}>
            Active (deliver events now)
          </label>
        </div>
      )}
      {localError && (
        <p className="note note-error" role="alert">
          {localError}
        </p>
      )}
      <div className="row">
        <button type="submit" disabled={pending}>
          {pending ? 'Saving…' : mode === 'create' ? 'Create endpoint' : 'Save changes'}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
