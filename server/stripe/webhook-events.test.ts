import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { readStripeEvent, verifyStripeEvent } from './webhook-events';

const SECRET = 'whsec_unitTestSigningSecret0123';

function event(type: string, object: Record<string, unknown>): Stripe.Event {
  return { id: 'evt_1', object: 'event', type, data: { object } } as unknown as Stripe.Event;
}

const session = (fields: Record<string, unknown> = {}) => ({
  object: 'checkout.session',
  id: 'cs_test_1',
  payment_status: 'paid',
  payment_intent: 'pi_1',
  metadata: { payment_id: 'pay_1' },
  ...fields,
});

describe('verifyStripeEvent', () => {
  const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'x', data: { object: {} } });
  const sign = (payload: string, secret = SECRET, timestamp?: number) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

  it('accepts a body signed with the secret within 5 minutes', () => {
    const result = verifyStripeEvent(body, sign(body), SECRET);
    expect(result.ok && result.event.id).toBe('evt_1');
    const fourMinutesAgo = Math.floor(Date.now() / 1000) - 240;
    expect(verifyStripeEvent(body, sign(body, SECRET, fourMinutesAgo), SECRET).ok).toBe(true);
  });

  it.each([
    ['no header', () => null, /missing/],
    ['another secret', () => sign(body, 'whsec_other'), /does not verify/],
    ['a stale timestamp', () => sign(body, SECRET, Math.floor(Date.now() / 1000) - 360), /tolerance/],
    ['garbage', () => 'v1=abc', /does not verify/],
  ])('refuses %s', (_, header, reason) => {
    const result = verifyStripeEvent(body, header(), SECRET);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toMatch(reason);
  });

  it('refuses a signed body that is not JSON', () => {
    expect(verifyStripeEvent('not json', sign('not json'), SECRET)).toEqual({
      ok: false,
      reason: 'The signed body is not JSON',
    });
  });
});

describe('readStripeEvent', () => {
  it('reads paid, awaiting, failed and refunded, with expanded ids too', () => {
    expect(readStripeEvent(event('checkout.session.completed', session()))).toEqual({
      kind: 'checkout_paid',
      sessionId: 'cs_test_1',
      paymentIntentId: 'pi_1',
      metadata: { payment_id: 'pay_1' },
    });
    expect(
      readStripeEvent(
        event('checkout.session.completed', session({ payment_status: 'unpaid', metadata: null })),
      ),
    ).toEqual({ kind: 'checkout_awaiting_payment', sessionId: 'cs_test_1', metadata: {} });
    expect(
      readStripeEvent(
        event('checkout.session.async_payment_succeeded', session({ payment_intent: { id: 'pi_9' } })),
      ),
    ).toMatchObject({ kind: 'checkout_paid', paymentIntentId: 'pi_9' });
    for (const type of ['checkout.session.expired', 'checkout.session.async_payment_failed']) {
      expect(readStripeEvent(event(type, session({ payment_status: 'unpaid' })))).toMatchObject({
        kind: 'checkout_failed',
      });
    }
    expect(
      readStripeEvent(
        event('charge.refunded', {
          object: 'charge',
          id: 'ch_1',
          payment_intent: 'pi_1',
          amount_refunded: 700,
        }),
      ),
    ).toEqual({ kind: 'charge_refunded', chargeId: 'ch_1', paymentIntentId: 'pi_1', amountRefunded: 700 });
  });

  it('tells types it does not follow from followed ones it cannot read', () => {
    expect(readStripeEvent(event('customer.created', { object: 'customer' }))).toEqual({
      kind: 'not_followed',
    });
    expect(readStripeEvent(event('checkout.session.completed', { object: 'charge', id: 'x' }))).toMatchObject(
      {
        kind: 'unreadable',
      },
    );
    expect(readStripeEvent(event('charge.refunded', { object: 'charge', id: 'ch_1' }))).toMatchObject({
      kind: 'unreadable',
    });
  });
});
