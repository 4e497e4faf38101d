/** What a list shows when it has no rows: a sentence, and optionally what to do about it. */
import type { ReactNode } from 'react';
import { cn } from './cn';

export function EmptyState({
  children,
  action,
  className,
}: {
  children: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        'flex flex-col items-center gap-3 rounded-card border border-dashed border-border bg-panel px-4 py-6 text-center text-muted',
        className,
      )}
    >
      <p>{children}</p>
      {action}
    </div>
  );
}
