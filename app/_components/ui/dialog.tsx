'use client';
/**
 * Modal dialog parts on Radix Dialog (focus trap, Escape, focus return, aria wiring). The
 * overlay and panel classes are shared with ConfirmDialog, which uses Radix AlertDialog.
 */
import * as DialogPrimitive from '@radix-ui/react-dialog';
import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cn } from './cn';

export const overlayClass = 'fixed inset-0 z-40 bg-[#0f141e]/45';
export const panelClass = cn(
  'fixed top-1/2 left-1/2 z-50 flex max-h-[90dvh] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2',
  'flex-col gap-3 overflow-y-auto rounded-dialog border border-border bg-panel p-5 shadow-xl',
);
export const titleClass = 'text-lg font-semibold';
export const descriptionClass = 'text-sm text-muted';
export const footerClass = 'mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export function DialogContent({
  className,
  children,
  ...props
}: ComponentPropsWithRef<typeof DialogPrimitive.Content>) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClass} />
      <DialogPrimitive.Content className={cn(panelClass, className)} {...props}>
        {children}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogTitle({ className, ...props }: ComponentPropsWithRef<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn(titleClass, className)} {...props} />;
}

export function DialogDescription({
  className,
  ...props
}: ComponentPropsWithRef<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn(descriptionClass, className)} {...props} />;
}

export function DialogFooter({ children }: { children: ReactNode }) {
  return <div className={footerClass}>{children}</div>;
}
