/**
 * Status pills. Every status the dashboard shows maps to a tone in ONE table, so "failed" looks
 * the same for a delivery, a payment and a message. Unknown statuses fall back to neutral.
 */
import type { ReactNode } from 'react';
import { cn } from './cn';

const TONE_CLASSES = {
  ok: 'bg-ok-soft text-ok',
  warn: 'bg-warn-soft text-warn',
  error: 'bg-error-soft text-error',
  info: 'bg-info-soft text-info',
  neutral: 'bg-subtle text-muted',
} as const;

export type Tone = keyof typeof TONE_CLASSES;

const STATUS_TONES: Record<string, Tone> = {
  // Shared by deliveries, bookings and payments: pending waits, succeeded/failed are final.
  pending: 'warn',
  succeeded: 'ok',
  failed: 'error',
  // Bookings
  confirmed: 'ok',
  completed: 'info',
  cancelled: 'neutral',
  // Conversations
  open: 'info',
  pending_human: 'warn',
  resolved: 'ok',
  // Messages
  received: 'info',
  queued: 'neutral',
  sent: 'info',
  delivered: 'ok',
  read: 'ok',
  // Payments
  refunded: 'neutral',
  // Webhook endpoints
  active: 'ok',
  disabled: 'neutral',
};

export function toneOf(status: string): Tone {
  return STATUS_TONES[status] ?? 'neutral';
}

export function Badge({
  tone,
  className,
  children,
}: {
  tone: Tone;
  className?: string;
  children: ReactNode;
}) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-px text-xs font-semibold whitespace-nowrap',
        TONE_CLASSES[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}

export function StatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <Badge tone={toneOf(status)} className={className}>
      {status.replaceAll('_', ' ')}
    </Badge>
  );
}
