'use client';
import { EVENT_TYPES, SUBSCRIPTION_FAMILIES } from '@/server/events/catalog';

const FAMILY_LABELS: Record<string, string> = {
  '*': 'All events (*)',
  'conversation.*': 'All conversation events',
  'booking.*': 'All booking events',
  'payment.*': 'All payment events',
};
const TYPES = EVENT_TYPES.filter((e) => e.type !== 'webhook.test');

/** Subscription checkboxes: `*`, the families, then each catalog type (CONTRACT §6). */
export function EventsPicker({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...value, name] : value.filter((v) => v !== name));
  const box = (name: string, label: string, title?: string) => (
    <label key={name} title={title}>
      <input
        type="checkbox"
        name="events"
        value={name}
        checked={value.includes(name)}
        onChange={(e) => toggle(name, e.target.checked)}
      />
      {label}
    </label>
  );
  return (
    <fieldset>
      <legend>Events</legend>
      <div className="checks">{SUBSCRIPTION_FAMILIES.map((f) => box(f, FAMILY_LABELS[f] ?? f))}</div>
      <details style={{ marginTop: '0.4rem' }}>
        <summary>Individual event types</summary>
        <div className="checks" style={{ marginTop: '0.4rem' }}>
          {TYPES.map((t) => box(t.type, t.type, t.description))}
        </div>
      </details>
    </fieldset>
  );
}
