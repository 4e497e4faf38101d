/** An inline message box (success, error, warning, info), and the readable text of an error. */
import type { ReactNode } from 'react';
import { cn } from './cn';

const TONES = {
  success: 'border-ok/30 bg-ok-soft text-[#134d2d]',
  error: 'border-error/30 bg-error-soft text-[#7d1d1a]',
  warn: 'border-warn/30 bg-warn-soft text-[#5c3d00]',
  info: 'border-info/30 bg-info-soft text-[#1b3a9c]',
} as const;

export type NoticeTone = keyof typeof TONES;

export function Notice({
  tone,
  role,
  className,
  children,
  ...props
}: {
  tone: NoticeTone;
  role?: 'alert' | 'status';
  className?: string;
  children: ReactNode;
  hidden?: boolean;
  'aria-live'?: 'polite' | 'assertive';
}) {
  return (
    <div
      role={role}
      className={cn('rounded-control border px-3 py-2 text-sm', TONES[tone], className)}
      {...props}
    >
      {children}
    </div>
  );
}

/** Turns a tRPC error into one readable sentence plus the field problems, if any. */
export function errorMessage(error: unknown): string {
  const e = error as {
    message?: string;
    data?: { fieldErrors?: { path: string; message: string }[] | null };
  } | null;
  const fields = e?.data?.fieldErrors;
  if (fields?.length) return fields.map((f) => `${f.path}: ${f.message}`).join('; ');
  return e?.message || 'Something went wrong';
}

/** An error as an alert, or nothing when there is none. */
export function ErrorNotice({ error, className }: { error: unknown; className?: string }) {
  if (!error) return null;
  return (
    <Notice tone="error" role="alert" className={className}>
      {errorMessage(error)}
    </Notice>
  );
}
