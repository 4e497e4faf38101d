/**
 * Layout helpers: `Stack` (vertical, spaced), `Cluster` (a wrapping row of controls) and `Grid`
 * (one column on a phone, up to `cols` from the md breakpoint; for cards and charts).
 */
import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';

const GAPS = { sm: 'gap-2', md: 'gap-4', lg: 'gap-6' } as const;
type Gap = keyof typeof GAPS;

export function Stack({ gap = 'md', className, ...props }: ComponentPropsWithRef<'div'> & { gap?: Gap }) {
  return <div className={cn('flex min-w-0 flex-col', GAPS[gap], className)} {...props} />;
}

export function Cluster({ gap = 'sm', className, ...props }: ComponentPropsWithRef<'div'> & { gap?: Gap }) {
  return <div className={cn('flex flex-wrap items-center', GAPS[gap], className)} {...props} />;
}

const COLS = {
  1: '',
  2: 'md:grid-cols-2',
  3: 'md:grid-cols-2 lg:grid-cols-3',
  4: 'md:grid-cols-2 xl:grid-cols-4',
};

export function Grid({
  cols = 2,
  gap = 'md',
  className,
  ...props
}: ComponentPropsWithRef<'div'> & { cols?: keyof typeof COLS; gap?: Gap }) {
  return <div className={cn('grid min-w-0 grid-cols-1', COLS[cols], GAPS[gap], className)} {...props} />;
}
