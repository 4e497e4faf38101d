'use client';
/**
 * A native select (keyboard, mobile pickers and autofill for free), styled like the inputs.
 * `inline` sizes it to its options, for filters in a toolbar; otherwise it fills its field.
 * `compact` matches a small button, for controls inside table rows.
 */
import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';
import { controlClass, useFieldControl } from './field';

export function Select({
  className,
  inline = false,
  compact = false,
  ...props
}: ComponentPropsWithRef<'select'> & { inline?: boolean; compact?: boolean }) {
  const field = useFieldControl(props);
  return (
    <select
      className={cn(
        controlClass,
        'cursor-pointer',
        inline ? 'w-auto' : 'w-full',
        compact ? 'py-1 text-[0.82rem]' : 'py-1.5',
        className,
      )}
      {...props}
      {...field}
    />
  );
}
