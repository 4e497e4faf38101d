'use client';
/**
 * A labelled form field: label, the control, a hint and an error. The control (Input, Select,
 * Textarea) picks up its id, aria-describedby and aria-invalid from the field, so a label click,
 * a screen reader and `getByLabel` all find it without ids threaded by hand.
 */
import { type AriaAttributes, createContext, type ReactNode, useContext, useId } from 'react';
import { cn } from './cn';

interface FieldContext {
  id: string;
  describedBy: string | undefined;
  invalid: boolean;
}

const Context = createContext<FieldContext | null>(null);

/** The ids and state the nearest Field hands to its control; explicit props win. */
export function useFieldControl(
  props: { id?: string } & Pick<AriaAttributes, 'aria-describedby' | 'aria-invalid'>,
) {
  const field = useContext(Context);
  return {
    id: props.id ?? field?.id,
    'aria-describedby': props['aria-describedby'] ?? field?.describedBy,
    'aria-invalid': props['aria-invalid'] ?? (field?.invalid || undefined),
  };
}

export function Field({
  label,
  hint,
  error,
  id,
  className,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  id?: string;
  className?: string;
  children: ReactNode;
}) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('flex min-w-0 flex-col gap-1', className)}>
      <label htmlFor={controlId} className="text-sm font-semibold">
        {label}
      </label>
      <Context value={{ id: controlId, describedBy, invalid: Boolean(error) }}>{children}</Context>
      {hint && (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The look shared by text inputs, selects and text areas. */
export const controlClass = cn(
  'min-w-0 rounded-control border border-border bg-panel px-2.5 text-fg',
  'placeholder:text-muted/70 aria-invalid:border-error disabled:bg-subtle disabled:opacity-70',
);
