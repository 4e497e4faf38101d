'use client';
/** A text input; inside a Field it is labelled and described by it. */
import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';
import { controlClass, useFieldControl } from './field';

export function Input({ className, type, ...props }: ComponentPropsWithRef<'input'>) {
  const field = useFieldControl(props);
  return (
    <input
      type={type ?? 'text'}
      className={cn(controlClass, 'w-full py-1.5', className)}
      {...props}
      {...field}
    />
  );
}
