// Checking a secret key before it is stored: Stripe must accept it and name its account.
import { stripeClient } from './client';
import { type StripeFailure, stripeFailure } from './errors';

export type AccountCheck = { ok: true; accountId: string } | { ok: false; failure: StripeFailure };

/** GET /v1/account with the key: the account it belongs to, or why Stripe refused it. */
export async function retrieveAccount(secretKey: string): Promise<AccountCheck> {
  try {
    const account = await stripeClient(secretKey).accounts.retrieveCurrent();
    return { ok: true, accountId: account.id };
  } catch (error) {
    return { ok: false, failure: stripeFailure(error, 'retrieve account') };
  }
}
