/**
 * Inline code (ids, event types) and a preformatted block (payloads, responses) that scrolls;
 * `compact` keeps a block short inside a table cell.
 */
import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';

export function Code({ className, ...props }: ComponentPropsWithRef<'code'>) {
  return <code className={cn('rounded bg-subtle px-1 py-px font-mono break-words', className)} {...props} />;
}

export function CodeBlock({
  compact = false,
  className,
  ...props
}: ComponentPropsWithRef<'pre'> & { compact?: boolean }) {
  return (
    <pre
      className={cn(
        compact ? 'max-h-32' : 'max-h-96',
        'overflow-auto rounded-card border border-border bg-[#f0f2f5] p-3 font-mono text-[0.82rem]',
        className,
      )}
      {...props}
    />
  );
}
