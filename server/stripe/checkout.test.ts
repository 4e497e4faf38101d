import { describe, expect, it } from 'vitest';
import {
  CHECKOUT_EXPIRY_MARGIN_MS,
  CHECKOUT_MAX_LIFETIME_MS,
  CHECKOUT_MIN_LIFETIME_MS,
  checkoutIdempotencyKey,
  checkoutSessionExpiresAt,
} from './checkout';

const created = new Date('2026-03-29T00:59:30.250Z');
const plus = (ms: number) => new Date(created.getTime() + ms);
const seconds = (date: Date) => Math.ceil(date.getTime() / 1000);
const MINUTE = 60_000;

describe('checkoutSessionExpiresAt', () => {
  it('is the hold end when the hold lasts longer than Stripe’s 30-minute minimum and the margin', () => {
    for (const hold of [33 * MINUTE, 45 * MINUTE, 6 * 3_600_000, CHECKOUT_MAX_LIFETIME_MS - 3 * MINUTE]) {
      expect(checkoutSessionExpiresAt(plus(hold), created)).toBe(seconds(plus(hold)));
    }
  });

  it('is 30 minutes after creation plus the margin (at most 3 minutes) when the hold ends sooner', () => {
    const floor = seconds(plus(CHECKOUT_MIN_LIFETIME_MS + CHECKOUT_EXPIRY_MARGIN_MS));
    for (const hold of [5_000, 10 * MINUTE, 30 * MINUTE, 31 * MINUTE, 32 * MINUTE]) {
      expect(checkoutSessionExpiresAt(plus(hold), created)).toBe(floor);
    }
    expect(CHECKOUT_EXPIRY_MARGIN_MS).toBeGreaterThan(0);
    expect(CHECKOUT_EXPIRY_MARGIN_MS).toBeLessThanOrEqual(3 * MINUTE);
  });

  it('stays inside Stripe’s 24-hour maximum, with the margin', () => {
    expect(checkoutSessionExpiresAt(plus(30 * 3_600_000), created)).toBe(
      seconds(plus(CHECKOUT_MAX_LIFETIME_MS - CHECKOUT_EXPIRY_MARGIN_MS)),
    );
  });

  it('depends on the creation time it is given, not the clock: a retry sends the same value', () => {
    const hold = plus(5_000);
    expect(checkoutSessionExpiresAt(hold, created)).toBe(checkoutSessionExpiresAt(hold, created));
    expect(checkoutSessionExpiresAt(hold, plus(MINUTE))).toBe(checkoutSessionExpiresAt(hold, created) + 60);
  });

  it('derives the idempotency key from the payment', () => {
    expect(checkoutIdempotencyKey('pay_01J')).toBe('switchboard-checkout-pay_01J');
  });
});
