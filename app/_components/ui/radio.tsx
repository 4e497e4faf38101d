/**
 * A choice of one among a few, each with a line saying what it means (an API key's access): native
 * radio inputs in a fieldset, so arrow keys, labels and screen readers need nothing more. The whole
 * option is the click target and shows which one is chosen.
 */
import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cn } from './cn';

export function RadioGroup({
  legend,
  className,
  children,
}: {
  legend: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className={cn('min-w-0', className)}>
      <legend className="mb-1 text-sm font-semibold">{legend}</legend>
      <div className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,15rem),1fr))] gap-2">{children}</div>
    </fieldset>
  );
}

export function Radio({
  label,
  hint,
  className,
  ...props
}: Omit<ComponentPropsWithRef<'input'>, 'type'> & { label: ReactNode; hint?: ReactNode }) {
  return (
    <label
      className={cn(
        'flex cursor-pointer items-start gap-2 rounded-control border border-border bg-panel p-2.5 text-sm',
        'hover:bg-subtle has-checked:border-accent has-checked:bg-accent-soft',
        'has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-accent',
        className,
      )}
    >
      <input type="radio" className="mt-0.5 size-4 shrink-0 cursor-pointer accent-accent" {...props} />
      <span className="min-w-0">
        <span className="block font-semibold">{label}</span>
        {hint && <span className="mt-0.5 block text-muted">{hint}</span>}
      </span>
    </label>
  );
}
