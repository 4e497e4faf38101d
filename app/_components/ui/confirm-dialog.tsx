'use client';
/**
 * "Are you sure?" on Radix AlertDialog, in place of window.confirm. `onConfirm` may return a
 * promise: the dialog stays open with a busy confirm button until it settles, closes when it
 * resolves, and shows the error (staying open) when it rejects. Cancel and Escape do nothing else.
 */
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { type ReactElement, type ReactNode, useState } from 'react';
import { Button } from './button';
import { descriptionClass, footerClass, overlayClass, panelClass, titleClass } from './dialog';
import { ErrorNotice } from './notice';

export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  destructive = false,
  onConfirm,
}: {
  /** The element that opens the dialog (usually a Button). */
  trigger: ReactElement;
  title: ReactNode;
  description?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
  onConfirm: () => unknown;
}) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function confirm() {
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      setOpen(false);
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
    }
  }

  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        // A running confirmation cannot be dismissed halfway.
        if (pending) return;
        setOpen(next);
        setError(null);
      }}
    >
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClass} />
        <AlertDialog.Content
          className={panelClass}
          // Without a description, say so: Radix otherwise points aria-describedby at nothing.
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <AlertDialog.Title className={titleClass}>{title}</AlertDialog.Title>
          {description && (
            <AlertDialog.Description className={descriptionClass}>{description}</AlertDialog.Description>
          )}
          <ErrorNotice error={error} />
          <div className={footerClass}>
            <AlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={pending}>
                {cancelLabel}
              </Button>
            </AlertDialog.Cancel>
            <Button variant={destructive ? 'danger' : 'primary'} loading={pending} onClick={confirm}>
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
