'use client';
/**
 * Asks for one value in a dialog, in place of window.prompt: a labelled input (or text area),
 * validation shown under it, and an async submit with the same pending/error handling as
 * ConfirmDialog. The value starts from `initialValue` each time the dialog opens.
 */
import { type FormEvent, type ReactElement, type ReactNode, useState } from 'react';
import { Button } from './button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle, DialogTrigger } from './dialog';
import { Field } from './field';
import { Input } from './input';
import { ErrorNotice } from './notice';
import { Textarea } from './textarea';

export function PromptDialog({
  trigger,
  title,
  description,
  label,
  hint,
  initialValue = '',
  required = false,
  maxLength,
  multiline = false,
  validate,
  submitLabel = 'Save',
  cancelLabel = 'Cancel',
  destructive = false,
  onSubmit,
}: {
  trigger: ReactElement;
  title: ReactNode;
  description?: ReactNode;
  label: string;
  hint?: ReactNode;
  initialValue?: string;
  required?: boolean;
  maxLength?: number;
  multiline?: boolean;
  /** Returns a message when the (trimmed) value is not acceptable. */
  validate?: (value: string) => string | null;
  submitLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
  onSubmit: (value: string) => unknown;
}) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(initialValue);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  function check(raw: string): string | null {
    const trimmed = raw.trim();
    if (required && !trimmed) return `${label} is required.`;
    if (maxLength !== undefined && trimmed.length > maxLength)
      return `${label} is too long: ${trimmed.length} of at most ${maxLength} characters.`;
    return validate?.(trimmed) ?? null;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = check(value);
    setInvalid(problem);
    if (problem) return;
    setPending(true);
    setError(null);
    try {
      await onSubmit(value.trim());
      setOpen(false);
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
    }
  }

  const Control = multiline ? Textarea : Input;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (pending) return;
        setOpen(next);
        if (next) setValue(initialValue);
        setInvalid(null);
        setError(null);
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent {...(description ? {} : { 'aria-describedby': undefined })}>
        <form onSubmit={submit} noValidate className="flex flex-col gap-3">
          <DialogTitle>{title}</DialogTitle>
          {description && <DialogDescription>{description}</DialogDescription>}
          <Field label={label} hint={hint} error={invalid}>
            <Control
              value={value}
              required={required}
              onChange={(e: { target: { value: string } }) => {
                setValue(e.target.value);
                if (invalid) setInvalid(check(e.target.value));
              }}
            />
          </Field>
          <ErrorNotice error={error} />
          <DialogFooter>
            <Button variant="secondary" disabled={pending} onClick={() => setOpen(false)}>
              {cancelLabel}
            </Button>
            <Button type="submit" variant={destructive ? 'danger' : 'primary'} loading={pending}>
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
