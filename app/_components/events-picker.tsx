'use client';
import { Checkbox, cn } from '@/app/_components/ui';
import { EVENT_TYPES, isSubscribable, SUBSCRIPTION_FAMILIES } from '@/server/client-safe/event-catalog';

const FAMILY_LABELS: Record<(typeof SUBSCRIPTION_FAMILIES)[number], string> = {
  '*': 'All events (*)',
  'conversation.*': 'All conversation events',
  'booking.*': 'All booking events',
  'payment.*': 'All payment events',
  'webhook.*': 'All webhook notices (endpoint disabled, delivery exhausted)',
};

// As many columns of at least 17rem as fit: the longest type name stays on one line.
const gridClass =
  'grid grid-cols-[repeat(auto-fill,minmax(min(100%,17rem),1fr))] gap-x-4 gap-y-1.5 rounded-control border border-border p-3';

/** Subscription checkboxes: `*`, the families, then each catalog type (the client-safe event catalog). */
export function EventsPicker({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...value, name] : value.filter((v) => v !== name));
  const box = (name: string, label: string, title?: string) => (
    <Checkbox
      key={name}
      name="events"
      value={name}
      label={label}
      title={title}
      checked={value.includes(name)}
      onChange={(e) => toggle(name, e.target.checked)}
    />
  );
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 text-sm font-semibold">Events</legend>
      <div className={gridClass}>{SUBSCRIPTION_FAMILIES.map((f) => box(f, FAMILY_LABELS[f]))}</div>
      <details className="mt-2">
        <summary className="cursor-pointer text-sm">Individual event types</summary>
        <div className={cn(gridClass, 'mt-2')}>
          {EVENT_TYPES.filter((t) => isSubscribable(t.type)).map((t) => box(t.type, t.type, t.description))}
        </div>
      </details>
    </fieldset>
  );
}
