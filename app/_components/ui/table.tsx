/**
 * Table parts. The table sits in its own horizontal scroller with a minimum width, so on a phone
 * the table scrolls inside its box instead of squeezing cells or widening the page. The scroller
 * is positioned so that absolutely positioned content (sr-only labels) stays clipped inside it.
 */
import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';

export function Table({ className, ...props }: ComponentPropsWithRef<'table'>) {
  return (
    <div className="relative w-full overflow-x-auto rounded-card border border-border bg-panel">
      <table className={cn('w-full min-w-[40rem] border-collapse text-left', className)} {...props} />
    </div>
  );
}

export function TableCaption({ className, ...props }: ComponentPropsWithRef<'caption'>) {
  return (
    <caption
      className={cn('border-b border-border px-3 py-2 text-left text-sm text-muted', className)}
      {...props}
    />
  );
}

/**
 * The header row. Give `columns` for plain text headers; `actions` names a last column (the row
 * actions) for screen readers only. Or pass your own rows as children.
 */
export function THead({
  columns,
  actions,
  className,
  children,
  ...props
}: ComponentPropsWithRef<'thead'> & { columns?: string[]; actions?: string }) {
  return (
    <thead className={cn('bg-subtle', className)} {...props}>
      {columns ? (
        <Tr>
          {columns.map((column) => (
            <Th key={column}>{column}</Th>
          ))}
          {actions && (
            <Th>
              <span className="sr-only">{actions}</span>
            </Th>
          )}
        </Tr>
      ) : (
        children
      )}
    </thead>
  );
}

export function TBody({ className, ...props }: ComponentPropsWithRef<'tbody'>) {
  return <tbody className={cn('[&>tr:last-child>td]:border-b-0', className)} {...props} />;
}

export function Tr({ className, ...props }: ComponentPropsWithRef<'tr'>) {
  return <tr className={cn('aria-selected:bg-accent-soft/60', className)} {...props} />;
}

export function Th({ className, scope, ...props }: ComponentPropsWithRef<'th'>) {
  return (
    <th
      scope={scope ?? 'col'}
      className={cn(
        'border-b border-border px-3 py-2 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-muted uppercase',
        className,
      )}
      {...props}
    />
  );
}

/** A cell; `actions` right-aligns a row's buttons and keeps them on one line. */
export function Td({
  className,
  actions,
  children,
  ...props
}: ComponentPropsWithRef<'td'> & { actions?: boolean }) {
  return (
    <td
      className={cn('border-b border-border px-3 py-2 align-top', actions && 'text-right', className)}
      {...props}
    >
      {actions ? (
        <div className="inline-flex flex-nowrap items-center justify-end gap-1.5">{children}</div>
      ) : (
        children
      )}
    </td>
  );
}
