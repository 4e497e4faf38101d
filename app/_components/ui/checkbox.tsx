/** A checkbox with its label beside it; the label is the click target too. */
import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cn } from './cn';

export function Checkbox({
  label,
  className,
  title,
  ...props
}: Omit<ComponentPropsWithRef<'input'>, 'type'> & { label: ReactNode }) {
  return (
    <label className={cn('flex cursor-pointer items-start gap-2 text-sm', className)} title={title}>
      <input type="checkbox" className="mt-0.5 size-4 shrink-0 cursor-pointer accent-accent" {...props} />
      <span className="min-w-0 break-words">{label}</span>
    </label>
  );
}
