// How a failed call to a payment provider is answered, worded once.
import { AppError } from '@/server/lib/errors';
import type { StripeFailure } from '@/server/stripe/errors';

export const providerUnavailable = (detail: string) =>
  new AppError('payment_provider_unavailable', `Stripe: ${detail}`, { retryAfterSeconds: 5 });

export const providerMissing = () =>
  new AppError(
    'payment_provider_missing',
    'Stripe is not connected for this tenant (PUT /payment-providers/stripe)',
  );

/** Any failure of a call to Stripe that the operation has no more specific answer for. */
export function providerProblem(failure: StripeFailure): AppError {
  switch (failure.kind) {
    case 'unavailable':
      return providerUnavailable(failure.message);
    case 'key_refused':
      return new AppError(
        'payment_provider_refused',
        `${failure.message}: connect Stripe again with a working secret key (PUT /payment-providers/stripe)`,
      );
    case 'idempotency':
      return new AppError(
        'concurrent_update',
        'Another request of this operation with other parameters reached Stripe first; read the payment and retry',
      );
    case 'refused':
      return new AppError('payment_provider_refused', `Stripe refused the request: ${failure.message}`);
  }
}
