'use client';
/**
 * Pick a time, then name and phone (e-mail optional), then book: a free service lands on its manage
 * page (confirmed, or awaiting the business's confirmation), a paid one goes to Stripe Checkout, which
 * returns there. A time taken meanwhile says so and shows the free times again.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { money } from '@/app/_components/booking-page/page-shell';
import { callPublic, newAttemptKey, type Slot } from '@/app/_components/booking-page/public-api';
import { SlotPicker } from '@/app/_components/booking-page/slot-picker';
import { dateTimeLabel, detectedZone } from '@/app/_components/booking-page/visitor-time';
// The kit's parts one by one, not its index: the public page's bundle then holds only these.
import { Button } from '@/app/_components/ui/button';
import { Field } from '@/app/_components/ui/field';
import { Input } from '@/app/_components/ui/input';
import { Notice } from '@/app/_components/ui/notice';

interface Service {
  id: string;
  price: { amount: number; currency: string } | null;
  payment: 'none' | 'deposit' | 'full';
  deposit_amount: number | null;
  requires_confirmation: boolean;
}

interface Created {
  manage_url: string;
  checkout_url?: string;
}

export function BookForm({ service }: { service: Service }) {
  const [zone, setZone] = useState<string | null>(null);
  const [slot, setSlot] = useState<Slot | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // One key per chosen time and customer: a retry of the same attempt books once.
  const [attempt, setAttempt] = useState(newAttemptKey);

  useEffect(() => setZone(detectedZone()), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!slot) return;
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    setPending(true);
    setProblem(null);
    const answer = await callPublic<Created>('POST', `/services/${service.id}/bookings`, {
      idempotencyKey: attempt,
      body: {
        start_at: slot.start,
        customer: {
          name: String(form.get('name') ?? ''),
          phone: String(form.get('phone') ?? ''),
          ...(email ? { email } : {}),
        },
      },
    });
    if (answer.ok) {
      window.location.assign(answer.body.checkout_url ?? answer.body.manage_url);
      return;
    }
    setPending(false);
    setAttempt(newAttemptKey());
    if (answer.problem.code === 'slot_unavailable') {
      setSlot(null);
      setRefreshKey((k) => k + 1);
      setProblem('Sorry, that time was just taken. Here are the free times again.');
    } else {
      setProblem(answer.problem.message);
    }
  }

  const paid = service.payment !== 'none' && service.price;
  const due =
    paid && service.price
      ? money(
          service.payment === 'deposit' && service.deposit_amount !== null
            ? service.deposit_amount
            : service.price.amount,
          service.price.currency,
        )
      : null;

  return (
    <div className="flex flex-col gap-5">
      {problem && (
        <Notice tone="error" role="alert">
          {problem}
        </Notice>
      )}
      {zone && (
        <SlotPicker
          slotsPath={`/services/${service.id}/slots`}
          zone={zone}
          onZoneChange={(z) => {
            setZone(z);
            setSlot(null);
          }}
          selected={slot}
          onSelect={(s) => {
            setSlot(s);
            setAttempt(newAttemptKey());
          }}
          refreshKey={refreshKey}
        />
      )}
      {slot && zone && (
        <form onSubmit={submit} className="flex flex-col gap-4 border-t border-border pt-4">
          <p className="text-sm">
            <span className="font-semibold">Your time:</span> {dateTimeLabel(slot.start, zone)}
          </p>
          <Field label="Name">
            <Input name="name" required maxLength={200} autoComplete="name" />
          </Field>
          <Field label="Phone" hint="With country code, e.g. +34 600 111 222">
            <Input name="phone" type="tel" required autoComplete="tel" inputMode="tel" />
          </Field>
          <Field label="E-mail (optional)">
            <Input name="email" type="email" autoComplete="email" />
          </Field>
          <Button type="submit" loading={pending} className="min-h-11 w-full sm:w-auto sm:self-start">
            {due ? `Book and pay ${due}` : service.requires_confirmation ? 'Request this time' : 'Book'}
          </Button>
        </form>
      )}
    </div>
  );
}
