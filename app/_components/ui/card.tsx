/**
 * A bordered panel. `CardHeader` holds a title, an optional description and actions (they wrap
 * under the title on a phone); `CardBody` pads the content. A chart or a message thread goes in
 * a CardBody; a Table can sit in a Card directly.
 */
import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cn } from './cn';

export function Card({ className, ...props }: ComponentPropsWithRef<'section'>) {
  return (
    <section className={cn('min-w-0 rounded-card border border-border bg-panel', className)} {...props} />
  );
}

export function CardHeader({
  title,
  titleId,
  description,
  actions,
  as: Heading = 'h2',
  className,
}: {
  title: ReactNode;
  titleId?: string;
  description?: ReactNode;
  actions?: ReactNode;
  as?: 'h1' | 'h2' | 'h3';
  className?: string;
}) {
  return (
    <div className={cn('flex flex-wrap items-start justify-between gap-3 px-4 pt-4 sm:px-5', className)}>
      <div className="min-w-0">
        <Heading id={titleId} className="text-base font-semibold [overflow-wrap:anywhere]">
          {title}
        </Heading>
        {description && <div className="mt-0.5 text-sm text-muted">{description}</div>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}

export function CardBody({ className, ...props }: ComponentPropsWithRef<'div'>) {
  return <div className={cn('min-w-0 p-4 sm:px-5', className)} {...props} />;
}
