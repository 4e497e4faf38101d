// Request bodies and resources in a given state, made through the REST API (so every answer is
// checked against its contract) and its real transitions. Each step asserts its status, so a broken
// setup fails here, naming the step, rather than as a puzzling assertion further down a test.
import { expect } from 'vitest';
import type { Api } from './harness';
import { rememberSecret } from './log-scan';

type Body = Record<string, unknown>;
/** A resource as the API answered it. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary resource fields
export type Resource = { id: string; status: string } & Record<string, any>;

export type BookingState = 'pending' | 'confirmed' | 'cancelled' | 'completed';
export type PaymentState = 'pending' | 'succeeded' | 'failed' | 'refunded';

/** A valid POST /bookings body: Ada Lovelace's check-up, 2026-12-01 09:00–09:30 UTC. */
export function bookingBody(overrides: Body = {}) {
  return {
    customer: { name: 'Ada Lovelace', email: 'ada@example.test', phone: '+441234567' },
    service: 'Check-up',
    start_at: '2026-12-01T09:00:00.000Z',
    end_at: '2026-12-01T09:30:00.000Z',
    ...overrides,
  };
}

/** A valid POST /payments body: 45.00 EUR, no booking. */
export function paymentBody(overrides: Body = {}) {
  return { amount: 4500, currency: 'EUR', ...overrides };
}

/** A valid POST /conversations body: a web visitor with a phone number. */
export function conversationBody(overrides: Body = {}) {
  return { channel: 'web', contact: { name: 'Visitor', phone: '+15551234567' }, ...overrides };
}

const BOOKING_STEPS: Record<BookingState, string[]> = {
  pending: [],
  confirmed: ['confirm'],
  completed: ['confirm', 'complete'],
  cancelled: ['cancel'],
};

const PAYMENT_STEPS: Record<PaymentState, string[]> = {
  pending: [],
  succeeded: ['succeed'],
  refunded: ['succeed', 'refund'],
  failed: ['fail'],
};

/** A booking created with `bookingBody(overrides)` and moved to `state`; answers its last representation. */
export async function givenBooking(api: Api, state: BookingState = 'pending', overrides: Body = {}) {
  return drive(api, `givenBooking('${state}')`, '/bookings', bookingBody(overrides), BOOKING_STEPS[state]);
}

/** A payment created with `paymentBody(overrides)` and moved to `state`; answers its last representation. */
export async function givenPayment(api: Api, state: PaymentState = 'pending', overrides: Body = {}) {
  return drive(api, `givenPayment('${state}')`, '/payments', paymentBody(overrides), PAYMENT_STEPS[state]);
}

/** An open conversation created with `conversationBody(overrides)`. */
export async function givenConversation(api: Api, overrides: Body = {}) {
  return drive(api, 'givenConversation()', '/conversations', conversationBody(overrides), []);
}

/** A WhatsApp channel for that phone number id (the token is never answered back). */
export async function givenChannel(api: Api, phoneNumberId: string, accessToken = 'tok') {
  const body = { type: 'whatsapp', phone_number_id: phoneNumberId, access_token: accessToken };
  rememberSecret('channel access token', accessToken);
  return step(api, 'givenChannel()', '/channels', body, 201);
}

/** A webhook endpoint for `url`; answers it with its `webhook_secret` (shown once, on creation). */
export async function givenEndpoint(api: Api, url: string, events: string[] = ['*']) {
  const endpoint = await step(api, 'givenEndpoint()', '/webhooks', { url, events }, 201);
  rememberSecret('webhook secret', endpoint.webhook_secret);
  return endpoint as Resource & { webhook_secret: string };
}

async function drive(api: Api, who: string, collection: string, body: Body, actions: string[]) {
  let resource = await step(api, who, collection, body, 201);
  for (const action of actions) {
    resource = await step(api, who, `${collection}/${resource.id}/${action}`, undefined, 200);
  }
  return resource;
}

async function step(api: Api, who: string, path: string, body: Body | undefined, status: number) {
  const res = await api('POST', path, body === undefined ? {} : { body });
  expect(res.status, `${who}: POST ${path} answered ${res.status} ${res.text}`).toBe(status);
  return res.body as Resource;
}
