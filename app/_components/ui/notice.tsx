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

/** The API's error code of a tRPC error (`slot_unavailable`, `resource_in_use`, …), or null. */
export function errorCode(error: unknown): string | null {
  return (error as { data?: { apiCode?: string | null } } | null)?.data?.apiCode ?? null;
}

/**
 * A form's server-side field errors by path (`customer.phone`, `weekly_hours.mon[1]`), so each shows at
 * its field; `rest` are those no field of the form claims (`claimed` says which paths it shows).
 */
export function fieldErrors(
  error: unknown,
  claimed: (path: string) => boolean = () => true,
): {
  at: (path: string) => string | undefined;
  rest: { path: string; message: string }[];
  /** Whether the error named any field. */
  any: boolean;
} {
  const list =
    (error as { data?: { fieldErrors?: { path: string; message: string }[] | null } } | null)?.data
      ?.fieldErrors ?? [];
  const byPath = new Map<string, string>();
  for (const f of list)
    byPath.set(f.path, byPath.has(f.path) ? `${byPath.get(f.path)}; ${f.message}` : f.message);
  return { at: (path) => byPath.get(path), rest: list.filter((f) => !claimed(f.path)), any: list.length > 0 };
}

/**
 * What a form shows above its buttons for a failed submit: the field errors no field claims, or the
 * error itself when it named no field; null when every problem sits at its field.
 */
export function formProblem(error: unknown, errors: ReturnType<typeof fieldErrors>): string | null {
  if (!error) return null;
  if (errors.rest.length > 0) return errors.rest.map((f) => `${f.path}: ${f.message}`).join('; ');
  return errors.any ? null : errorMessage(error);
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
