'use client';
/**
 * The booking form a free slot opens: the service and resource it was chosen on, the time (any free
 * slot of that resource that day, so a time taken meanwhile can be swapped without retyping), the
 * customer (name, email, phone), notes, and optionally a hold that expires unless confirmed; or a
 * booking confirmed at once. 409 slot_unavailable (someone else took the time) is said plainly and the
 * free times are read again; other refusals show at their fields.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type RouterOutputs, useTRPC, useTRPCClient } from '@/app/_components/trpc';
import {
  Button,
  Checkbox,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
  errorCode,
  type Feedback,
  Field,
  fieldErrors,
  formProblem,
  Input,
  Notice,
  Select,
  Textarea,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';
import { formatClock, formatDate, formatDateTime } from '@/app/_components/zoned-time';
import { LIMITS } from '@/server/client-safe/limits';
import type { CalendarResource, FreeSlot } from './time-grid';

type Service = RouterOutputs['services']['listServices']['data'][number];

export interface BookTarget {
  service: Service;
  resource: CalendarResource;
  zone: string;
  /** The local date (in `zone`) of the chosen slot. */
  date: string;
  start: string;
}

/** How long a hold may last (the API allows up to 24 hours). */
const HOLDS = [
  { minutes: 5, label: '5 minutes' },
  { minutes: 15, label: '15 minutes' },
  { minutes: 30, label: '30 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: 240, label: '4 hours' },
  { minutes: 1440, label: '24 hours' },
];

const FIELDS = ['start_at', 'customer.name', 'customer.email', 'customer.phone', 'notes', 'hold_expires_at'];

export function BookDialog({
  target,
  slots,
  onClose,
  feedback,
}: {
  target: BookTarget;
  /** The free slots of the resource on that date, kept current by the calendar. */
  slots: FreeSlot[];
  onClose: () => void;
  feedback: Feedback;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const { service, resource, zone } = target;
  const [start, setStart] = useState(target.start);
  const [hold, setHold] = useState(false);
  const paid = service.payment !== 'none';
  const [confirmNow, setConfirmNow] = useState(!paid);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.bookings.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.resources.pathKey() });
  };
  const create = useAction(
    {
      mutationFn: async (
        input: Parameters<typeof client.bookings.createBooking.mutate>[0] & { confirm: boolean },
      ) => {
        const { confirm, ...body } = input;
        const booking = await client.bookings.createBooking.mutate(body);
        if (!confirm) return booking;
        try {
          return await client.bookings.confirmBooking.mutate({ id: booking.id });
        } catch (error) {
          refresh();
          throw new Error(
            `The booking was made but is still pending: confirming it failed (${(error as Error).message}). Open it to confirm it.`,
          );
        }
      },
      onError: (error: unknown) => {
        // Someone else took the time: show the free times as they are now.
        if (errorCode(error) === 'slot_unavailable') refresh();
      },
    },
    {
      // The outcome: a refusal shows in the form (at its field), a success on the calendar page.
      invalidate: [trpc.bookings.pathKey(), trpc.resources.pathKey()],
      onSuccess: (b) => {
        feedback.success(
          `Booked ${b.customer.name} on ${formatDateTime(b.start_at, zone)} with ${resource.name} (${b.status})`,
        );
        onClose();
      },
    },
  );
  const taken = errorCode(create.error) === 'slot_unavailable';
  const errors = fieldErrors(create.error, (path) => FIELDS.includes(path));
  const problem = taken ? null : formProblem(create.error, errors);
  const stillFree = slots.some((s) => s.start === start);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const holdMinutes = Number(data.get('hold_minutes') ?? 15);
    create.mutate({
      service_id: service.id,
      resource_id: resource.id,
      start_at: start,
      customer: {
        name: text('name'),
        ...(text('email') ? { email: text('email') } : {}),
        ...(text('phone') ? { phone: text('phone') } : {}),
      },
      ...(text('notes') ? { notes: text('notes') } : {}),
      ...(hold ? { hold_expires_at: new Date(Date.now() + holdMinutes * 60_000).toISOString() } : {}),
      confirm: confirmNow && !hold && !paid,
    });
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !create.isPending && onClose()}>
      <DialogContent className="sm:max-w-lg">
        <form onSubmit={submit} noValidate className="flex flex-col gap-3" aria-label="New booking">
          <DialogTitle>New booking</DialogTitle>
          <DialogDescription>
            {service.name} ({service.duration_minutes} min) with {resource.name},{' '}
            {formatDate(target.date, { year: true })}. Times in {zone}.
          </DialogDescription>
          {taken && (
            <Notice tone="error" role="alert">
              That time was just taken by another booking. The free times have been read again: choose another
              time.
            </Notice>
          )}
          <Field
            label="Time"
            error={errors.at('start_at')}
            hint={slots.length === 0 ? 'No free time left this day.' : undefined}
          >
            <Select
              name="start"
              value={stillFree ? start : ''}
              onChange={(e) => setStart(e.target.value)}
              required
            >
              {!stillFree && <option value="">Choose a free time</option>}
              {slots.map((s) => (
                <option key={s.start} value={s.start}>
                  {formatClock(s.start, zone)}–{formatClock(s.end, zone)}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Customer name" error={errors.at('customer.name')}>
            <Input name="name" required maxLength={LIMITS.personName} autoComplete="off" />
          </Field>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="Email" error={errors.at('customer.email')}>
              <Input name="email" type="email" maxLength={LIMITS.email} autoComplete="off" />
            </Field>
            <Field label="Phone" hint="International, e.g. +34600111222" error={errors.at('customer.phone')}>
              <Input name="phone" type="tel" inputMode="tel" autoComplete="off" />
            </Field>
          </div>
          <Field label="Notes" error={errors.at('notes')}>
            <Textarea name="notes" rows={2} maxLength={5000} />
          </Field>
          <div className="flex flex-col gap-2 rounded-control border border-border p-3">
            <Checkbox
              label="Hold the time only: it is released unless confirmed in time"
              checked={hold}
              onChange={(e) => setHold(e.target.checked)}
            />
            {hold && (
              <Field label="Hold for" error={errors.at('hold_expires_at')} className="max-w-48">
                <Select name="hold_minutes" defaultValue="15">
                  {HOLDS.map((h) => (
                    <option key={h.minutes} value={h.minutes}>
                      {h.label}
                    </option>
                  ))}
                </Select>
              </Field>
            )}
            {paid ? (
              <p className="text-sm text-muted">
                This service takes a payment ({service.payment}): the booking stays pending until it is paid.
              </p>
            ) : (
              !hold && (
                <Checkbox
                  label="Confirm it now (otherwise it stays pending)"
                  checked={confirmNow}
                  onChange={(e) => setConfirmNow(e.target.checked)}
                />
              )
            )}
          </div>
          {problem && (
            <Notice tone="error" role="alert">
              {problem}
            </Notice>
          )}
          <DialogFooter>
            <Button variant="secondary" disabled={create.isPending} onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending} disabled={!stillFree}>
              Book
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
