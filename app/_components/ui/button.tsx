/**
 * The one button of the dashboard. `asChild` styles a link (or any element) as a button through
 * Radix Slot; `loading` disables it, shows a spinner and sets aria-busy while keeping its name.
 */
import { Slot } from '@radix-ui/react-slot';
import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';
import { Spinner } from './spinner';

const VARIANTS = {
  primary: 'border-accent bg-accent text-accent-fg hover:border-accent-hover hover:bg-accent-hover',
  secondary: 'border-border bg-panel text-fg hover:bg-subtle',
  danger: 'border-error bg-error text-white hover:border-[#8f211d] hover:bg-[#8f211d]',
  ghost: 'border-transparent bg-transparent text-fg hover:bg-subtle',
} as const;

const SIZES = {
  sm: 'gap-1.5 px-2.5 py-1 text-[0.82rem]',
  md: 'gap-2 px-3.5 py-1.5 text-sm',
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  variant?: ButtonVariant;
  size?: keyof typeof SIZES;
  asChild?: boolean;
  loading?: boolean;
}

export function buttonClass(variant: ButtonVariant = 'primary', size: keyof typeof SIZES = 'md') {
  return cn(
    'inline-flex items-center justify-center rounded-control border font-medium whitespace-nowrap no-underline',
    'cursor-pointer transition-colors disabled:cursor-not-allowed disabled:opacity-55',
    'aria-disabled:pointer-events-none aria-disabled:opacity-55',
    VARIANTS[variant],
    SIZES[size],
  );
}

export function Button({
  variant = 'primary',
  size = 'md',
  asChild = false,
  loading = false,
  disabled,
  className,
  children,
  type,
  ...props
}: ButtonProps) {
  const classes = cn(buttonClass(variant, size), className);
  if (asChild) {
    return (
      <Slot className={classes} {...props}>
        {children}
      </Slot>
    );
  }
  return (
    <button
      type={type ?? 'button'}
      className={classes}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...props}
    >
      {loading && <Spinner />}
      {children}
    </button>
  );
}
