'use client';
/** A multi-line text input; inside a Field it is labelled and described by it. */
import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';
import { controlClass, useFieldControl } from './field';

export function Textarea({ className, rows, ...props }: ComponentPropsWithRef<'textarea'>) {
  const field = useFieldControl(props);
  return (
    <textarea
      rows={rows ?? 3}
      className={cn(controlClass, 'w-full resize-y py-1.5', className)}
      {...props}
      {...field}
    />
  );
}
