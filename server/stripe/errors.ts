// What went wrong in a call to Stripe, in the few kinds the service answers differently. The SDK throws
// one error class per Stripe error type; callers decide what each kind means for their operation.
import Stripe from 'stripe';
import { logger } from '@/server/log';

export type StripeFailure =
  /** Stripe was not reached, did not answer in time, answered 5xx or rate limited us (after the SDK's retries). */
  | { kind: 'unavailable'; message: string }
  /** Stripe refused the secret key (401) or its permissions (403). */
  | { kind: 'key_refused'; message: string }
  /** An idempotency key reused with other parameters (another request of the same operation). */
  | { kind: 'idempotency'; message: string }
  /** Stripe refused the request itself (400/402/404): Stripe's code, message and parameter. */
  | { kind: 'refused'; code: string | undefined; message: string; param: string | undefined };

/** Classifies an error thrown by an SDK call; anything that is not a Stripe error is rethrown. */
export function stripeFailure(error: unknown, operation: string): StripeFailure {
  if (!(error instanceof Stripe.errors.StripeError)) throw error;
  logger().warn(
    {
      operation,
      stripe_type: error.type,
      stripe_code: error.code,
      status: error.statusCode,
      stripe_request_id: error.requestId,
    },
    'stripe call failed',
  );
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    (error.statusCode ?? 0) >= 500
  ) {
    return { kind: 'unavailable', message: 'Stripe could not be reached or did not answer; retry shortly' };
  }
  if (error instanceof Stripe.errors.StripeAuthenticationError) {
    // Stripe's own message names the key (masked); ours does not repeat any of it.
    return { kind: 'key_refused', message: 'Stripe refused the secret key' };
  }
  if (error instanceof Stripe.errors.StripePermissionError) {
    return { kind: 'key_refused', message: 'The secret key is not allowed to do this at Stripe' };
  }
  if (error instanceof Stripe.errors.StripeIdempotencyError) {
    return { kind: 'idempotency', message: error.message };
  }
  return { kind: 'refused', code: error.code, message: error.message, param: error.param };
}
