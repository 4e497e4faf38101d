'use client';
/**
 * Refunding a payment in part or in full: an amount in the payment's currency (with that currency's
 * minor units; at most what remains), checked as it is typed, then a confirmation step that names the
 * amount before anything is sent. Manual payments are refunded in full only, so they skip the amount.
 */
import { type FormEvent, type ReactElement, useState } from 'react';
import { formatMoney, minorToDecimal, parseMoney } from '@/app/_components/money';
import {
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
  DialogTrigger,
  ErrorNotice,
  Field,
  Input,
} from '@/app/_components/ui';

export interface Refundable {
  id: string;
  amount: number;
  currency: string;
  provider: string;
  refunded_amount: number;
}

export function RefundDialog({
  payment,
  trigger,
  onRefund,
}: {
  payment: Refundable;
  trigger: ReactElement;
  /** Sends the refund: `amount` in minor units (undefined: all that remains). */
  onRefund: (amount: number | undefined) => Promise<unknown>;
}) {
  const remaining = payment.amount - payment.refunded_amount;
  const partial = payment.provider !== 'manual';
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const [review, setReview] = useState<number | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const money = (n: number) => formatMoney(n, payment.currency);

  function check(value: string): { amount: number } | { message: string } {
    const parsed = parseMoney(value, payment.currency);
    if (!parsed.ok) return { message: parsed.message };
    if (parsed.amount > remaining) return { message: `At most ${money(remaining)} remains to be refunded.` };
    return { amount: parsed.amount };
  }

  function next(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (review !== null) return void send(review);
    const result = check(text);
    if ('message' in result) return setInvalid(result.message);
    setInvalid(null);
    setReview(result.amount);
  }

  async function send(amount: number) {
    setPending(true);
    setError(null);
    try {
      await onRefund(partial ? amount : undefined);
      setOpen(false);
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(value) => {
        if (pending) return;
        setOpen(value);
        setText(minorToDecimal(remaining, payment.currency));
        setInvalid(null);
        setError(null);
        setReview(partial ? null : remaining);
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <form onSubmit={next} noValidate className="flex flex-col gap-3" aria-label="Refund">
          <DialogTitle>
            {review === null ? `Refund a payment of ${money(payment.amount)}` : `Refund ${money(review)}?`}
          </DialogTitle>
          <DialogDescription>
            {review === null
              ? `Paid ${money(payment.amount)}; refunded so far ${money(payment.refunded_amount)}; ${money(remaining)} remains.`
              : review === remaining
                ? `All that remains goes back to the customer${partial ? ' through Stripe' : ''}; the payment becomes refunded. This cannot be undone.`
                : `${money(review)} of ${money(payment.amount)} goes back to the customer through Stripe; the payment stays succeeded with the refunded amount. This cannot be undone.`}
          </DialogDescription>
          {review === null && (
            <Field
              label={`Amount (${payment.currency})`}
              hint={`At most ${minorToDecimal(remaining, payment.currency)}.`}
              error={invalid}
            >
              <Input
                value={text}
                inputMode="decimal"
                autoComplete="off"
                onChange={(e) => {
                  setText(e.target.value);
                  if (invalid) {
                    const result = check(e.target.value);
                    setInvalid('message' in result ? result.message : null);
                  }
                }}
              />
            </Field>
          )}
          <ErrorNotice error={error} />
          <DialogFooter>
            <Button
              variant="secondary"
              disabled={pending}
              onClick={() => (review !== null && partial ? setReview(null) : setOpen(false))}
            >
              {review !== null && partial ? 'Back' : 'Cancel'}
            </Button>
            <Button type="submit" variant={review === null ? 'primary' : 'danger'} loading={pending}>
              {review === null ? 'Review refund' : `Refund ${money(review)}`}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
