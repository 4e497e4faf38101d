'use client';
/**
 * Table parts. From `md` up a table sits in its own horizontal scroller with a minimum width, so a
 * wide one scrolls inside its box instead of squeezing cells. Below `md` (a phone) each row reads
 * as a card: one cell per line, each after its column's name, and the row's actions on a line of
 * their own, wrapping, so every action is on screen without sideways scrolling. The column names are
 * copied from the header onto the cells (`data-label`, shown by CSS), so pages write a table once.
 */
import { type ComponentPropsWithRef, useLayoutEffect, useRef } from 'react';
import { cn } from './cn';

export function Table({ className, ...props }: ComponentPropsWithRef<'table'>) {
  const ref = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    const table = ref.current;
    if (!table) return;
    labelCells(table);
    // Rows come and go (a query resolves, "Load more"): label the new ones too.
    const observer = new MutationObserver(() => labelCells(table));
    observer.observe(table, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);
  return (
    <div className="relative w-full overflow-x-auto rounded-card border border-border bg-panel">
      <table
        ref={ref}
        className={cn('w-full border-collapse text-left max-md:block md:min-w-[40rem]', className)}
        {...props}
      />
    </div>
  );
}

/** Each body cell gets its column's header text as `data-label` (not the actions cell, not a spanning one). */
function labelCells(table: HTMLTableElement): void {
  const header = table.tHead?.rows[0];
  if (!header) return;
  const names = [...header.cells].map((cell) => cell.textContent?.trim() ?? '');
  for (const body of table.tBodies) {
    for (const row of body.rows) {
      for (const cell of row.cells) {
        const name = names[cell.cellIndex];
        if (!name || cell.colSpan > 1 || cell.hasAttribute('data-actions')) continue;
        if (cell.dataset.label !== name) cell.dataset.label = name;
      }
    }
  }
}

export function TableCaption({ className, ...props }: ComponentPropsWithRef<'caption'>) {
  return (
    <caption
      className={cn('border-b border-border px-3 py-2 text-left text-sm text-muted max-md:block', className)}
      {...props}
    />
  );
}

/**
 * The header row. Give `columns` for plain text headers; `actions` names a last column (the row
 * actions) for screen readers only. Or pass your own rows as children. On a phone the header is
 * visually hidden: each cell shows its column's name instead.
 */
export function THead({
  columns,
  actions,
  className,
  children,
  ...props
}: ComponentPropsWithRef<'thead'> & { columns?: string[]; actions?: string }) {
  return (
    <thead className={cn('bg-subtle max-md:sr-only', className)} {...props}>
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
  return (
    <tbody
      className={cn('max-md:block [&>tr:last-child]:border-b-0 [&>tr:last-child>td]:border-b-0', className)}
      {...props}
    />
  );
}

export function Tr({ className, ...props }: ComponentPropsWithRef<'tr'>) {
  return (
    <tr
      className={cn(
        'aria-selected:bg-accent-soft/60',
        'max-md:flex max-md:flex-col max-md:gap-1 max-md:border-b max-md:border-border max-md:px-3 max-md:py-3',
        className,
      )}
      {...props}
    />
  );
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

// On a phone a labelled cell is a line "NAME  value": the label from data-label, the value beside it.
const CARD_CELL =
  'max-md:grid max-md:grid-cols-[6.5rem_minmax(0,1fr)] max-md:items-baseline max-md:gap-x-3 max-md:border-0 ' +
  'max-md:p-0 max-md:[overflow-wrap:anywhere] max-md:before:text-xs max-md:before:font-semibold ' +
  'max-md:before:tracking-wide max-md:before:text-muted max-md:before:uppercase ' +
  'max-md:before:content-[attr(data-label)] max-md:[&:not([data-label])]:block';

/** A cell; `actions` right-aligns a row's buttons and keeps them on one line (on a phone: a wrapping line of their own). */
export function Td({
  className,
  actions,
  children,
  ...props
}: ComponentPropsWithRef<'td'> & { actions?: boolean }) {
  return (
    <td
      data-actions={actions ? '' : undefined}
      className={cn(
        'border-b border-border px-3 py-2 align-top',
        actions
          ? 'text-right max-md:block max-md:border-0 max-md:p-0 max-md:pt-1.5 max-md:text-left'
          : CARD_CELL,
        className,
      )}
      {...props}
    >
      {actions ? (
        <div className="inline-flex flex-nowrap items-center justify-end gap-1.5 max-md:flex max-md:flex-wrap max-md:justify-start">
          {children}
        </div>
      ) : (
        <div className="min-w-0">{children}</div>
      )}
    </td>
  );
}
