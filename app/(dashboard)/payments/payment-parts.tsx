'use client';
/** Small pieces of a payment shown in the payments list and in a booking's details. */
import { formatMoney } from '@/app/_components/money';
import { Code } from '@/app/_components/ui';

interface Shown {
  amount: number;
  currency: string;
  status: string;
  provider: string;
  provider_ref: string | null;
  checkout_url: string | null;
  refunded_amount: number;
}

/** "refunded €12.00" under the amount when part (or all) of it went back. */
export function RefundedAmount({ payment }: { payment: Shown }) {
  if (payment.refunded_amount <= 0) return null;
  return (
    <div className="text-sm text-muted" data-testid="refunded-amount">
      refunded {formatMoney(payment.refunded_amount, payment.currency)}
    </div>
  );
}

/** The provider, its reference, and a pending Stripe payment's checkout page as a link. */
export function PaymentProviderCell({ payment }: { payment: Shown }) {
  return (
    <div className="min-w-0">
      {payment.provider === 'stripe' ? 'Stripe' : 'Manual'}
      {payment.provider_ref && (
        <div className="text-sm text-muted">
          <Code className="break-all">{payment.provider_ref}</Code>
        </div>
      )}
      {payment.provider === 'stripe' && payment.status === 'pending' && payment.checkout_url && (
        <div className="text-sm">
          <a href={payment.checkout_url} target="_blank" rel="noopener noreferrer">
            Checkout link
          </a>
        </div>
      )}
    </div>
  );
}
