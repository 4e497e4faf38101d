'use client';
/**
 * On/off buttons (aria-pressed): `ToggleButton` alone (a resource shown on the calendar or not) and
 * `Segmented`, a row of them of which exactly one is on (day or week). Native buttons, so keyboard
 * and screen readers need nothing more.
 */
import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cn } from './cn';

const toggleClass = cn(
  'inline-flex cursor-pointer items-center gap-1.5 border px-3 py-1.5 text-sm whitespace-nowrap transition-colors',
  'disabled:cursor-not-allowed disabled:opacity-55',
  'aria-pressed:border-accent aria-pressed:bg-accent-soft aria-pressed:font-semibold aria-pressed:text-[#1b3a9c]',
  'border-border bg-panel text-fg hover:bg-subtle',
);

export function ToggleButton({
  pressed,
  className,
  ...props
}: Omit<ComponentPropsWithRef<'button'>, 'aria-pressed'> & { pressed: boolean }) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      className={cn(toggleClass, 'rounded-control', className)}
      {...props}
    />
  );
}

export function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
  className,
}: {
  /** Names the group for screen readers. */
  label: string;
  value: T;
  options: readonly { value: T; label: ReactNode }[];
  onChange: (value: T) => void;
  className?: string;
}) {
  return (
    <fieldset className={cn('inline-flex min-w-0', className)}>
      <legend className="sr-only">{label}</legend>
      {options.map((option, i) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
          className={cn(
            toggleClass,
            '-ml-px first:ml-0 aria-pressed:z-10',
            i === 0 && 'rounded-l-control',
            i === options.length - 1 && 'rounded-r-control',
          )}
        >
          {option.label}
        </button>
      ))}
    </fieldset>
  );
}
