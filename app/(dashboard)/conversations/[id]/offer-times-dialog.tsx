'use client';
/**
 * Offer times: the agent picks a service and the days, and the customer receives them on WhatsApp as
 * a list they tap (POST /conversations/{id}/offers). The server holds the tapped time and answers the
 * customer itself; the thread shows the list, the tap and the answer as they happen.
 */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
  DialogTrigger,
  ErrorNotice,
  type Feedback,
  Field,
  fieldErrors,
  Input,
  Select,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';

const DAY_CHOICES = [1, 2, 3, 4, 5, 6, 7];

export function OfferTimesDialog({
  conversationId,
  windowOpen,
  feedback,
}: {
  conversationId: string;
  /** WhatsApp takes a list only within 24 h of the customer's last message. */
  windowOpen: boolean;
  feedback: Feedback;
}) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [serviceId, setServiceId] = useState('');
  const [date, setDate] = useState('');
  const [days, setDays] = useState(3);
  const services = useQuery({ ...trpc.services.listServices.queryOptions({ limit: 100 }), enabled: open });
  const active = (services.data?.data ?? []).filter((s) => s.is_active);
  const chosen = serviceId || active[0]?.id || '';
  const offer = useAction(trpc.conversations.offerTimes.mutationOptions(), {
    feedback,
    success: (o) => `Offered ${o.options.length} times; the customer's tap holds one`,
    invalidate: [trpc.conversations.pathKey()],
    onSuccess: () => setOpen(false),
  });
  const errors = fieldErrors(offer.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen || offer.isPending) return;
    offer.mutate({ id: conversationId, service_id: chosen, days, ...(date ? { date } : {}) });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(value) => {
        if (offer.isPending) return;
        setOpen(value);
        offer.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button
          variant="secondary"
          disabled={!windowOpen}
          title={
            windowOpen ? undefined : 'The customer has not written in 24 h: only a template can reach them'
          }
        >
          Offer times
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} noValidate className="flex flex-col gap-3" aria-label="Offer times">
          <DialogTitle>Offer times on WhatsApp</DialogTitle>
          <DialogDescription>
            The customer gets up to 10 free times as a list. Their tap holds the time; they confirm it (or pay
            for a paid service) in WhatsApp.
          </DialogDescription>
          <Field label="Service" error={errors.at('service_id')}>
            <Select value={chosen} onChange={(e) => setServiceId(e.target.value)} required>
              {services.isPending && <option value="">Loading services…</option>}
              {!services.isPending && active.length === 0 && <option value="">No active service</option>}
              {active.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.duration_minutes} min)
                </option>
              ))}
            </Select>
          </Field>
          <div className="grid grid-cols-2 gap-3">
            <Field label="From" hint="Default: today" error={errors.at('date')}>
              <Input type="date" value={date} onChange={(e) => setDate(e.target.value)} />
            </Field>
            <Field label="Days" error={errors.at('days')}>
              <Select value={String(days)} onChange={(e) => setDays(Number(e.target.value))}>
                {DAY_CHOICES.map((n) => (
                  <option key={n} value={n}>
                    {n === 1 ? '1 day' : `${n} days`}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <ErrorNotice error={offer.error} />
          <DialogFooter>
            <Button variant="secondary" disabled={offer.isPending} onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" loading={offer.isPending} disabled={!chosen}>
              Send the list
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
