// Typed events (docs/decisions.md "Integrator tools"): what is recorded matches its type's schema, a mismatching event
// cannot be recorded, and a real delivery validates against the schema GET /event-types serves.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '@/server/client-safe/event-catalog';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { exampleObject, InvalidEventPayload } from '@/server/events/payloads';
import { type DeliveryWorker, startDeliveryWorker } from '@/server/runtime/deliveries/worker';
import { recordEvent } from '@/server/webhooks/outbox';
import { givenBooking, givenEndpoint } from '../support/builders';
import { apiSuite } from '../support/harness';
import { jsonSchemaValidator } from '../support/json-schema';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

const { api, tenant: a } = apiSuite();
let worker: DeliveryWorker;
let hook: Receiver;
const ajv = jsonSchemaValidator();

beforeAll(async () => {
  worker = await startDeliveryWorker({ pollIntervalMs: 20 });
  hook = await startReceiver();
});
afterAll(async () => {
  await worker.stop();
  await hook.close();
});

describe('typed events', () => {
  it('a booking.created delivery validates against the schema GET /event-types serves for it', async () => {
    const endpoint = await givenEndpoint(a.admin, hook.url, ['booking.created']);
    const booking = await givenBooking(a.admin);
    const [got] = await hook.waitFor(1);
    const body = new Webhook(endpoint.webhook_secret).verify(got.body, {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    }) as { type: string; data: { object: { id: string } } };
    expect(body.data.object.id).toBe(booking.id);

    const types = await a.admin('GET', '/event-types');
    expect(types.status).toBe(200);
    const info = types.body.data.find((e: { type: string }) => e.type === 'booking.created');
    expect(Object.keys(info).sort()).toEqual(['description', 'example', 'schema', 'type']);
    const validate = ajv.compile(info.schema);
    expect(validate(JSON.parse(got.body)), ajv.errorsText(validate.errors)).toBe(true);
    expect(validate(info.example)).toBe(true);
    // The object is exactly the resource the REST API returns.
    expect(body.data.object).toEqual((await a.admin('GET', `/bookings/${booking.id}`)).body);
  });

  it('serves a schema and a valid example for every type', async () => {
    const types = await a.admin('GET', '/event-types');
    expect(types.body.data.map((e: { type: string }) => e.type)).toEqual(EVENT_TYPES.map((e) => e.type));
    for (const info of types.body.data) {
      const validate = ajv.compile(info.schema);
      expect(validate(info.example), `${info.type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });

  it('an event whose payload does not match its type is not recorded, and rolls back its change', async () => {
    const db = forTenant(a.tenantId);
    const before = await db.event.count();
    await expect(
      transaction({ tenantId: a.tenantId }, (tx) =>
        recordEvent(tx, {
          tenantId: a.tenantId,
          type: 'booking.confirmed',
          // A payment is no booking: refused at run time even where the types were bypassed.
          object: exampleObject('payment.created') as never,
        }),
      ),
    ).rejects.toThrow(InvalidEventPayload);
    await expect(
      transaction({ tenantId: a.tenantId }, (tx) =>
        recordEvent(tx, {
          tenantId: a.tenantId,
          type: 'booking.confirmed',
          object: { ...exampleObject('booking.confirmed'), secret_field: 'x' } as never,
        }),
      ),
    ).rejects.toThrow(/secret_field/);
    expect(await db.event.count()).toBe(before);
  });

  it('documents one webhook per catalog type, its body the typed envelope with an example', async () => {
    const doc = (await api('GET', '/openapi.json')).body;
    expect(Object.keys(doc.webhooks).sort()).toEqual(EVENT_TYPES.map((e) => e.type).sort());
    const created = doc.webhooks['booking.created'].post;
    const content = created.requestBody.content['application/json'];
    expect(content.schema).toEqual({ $ref: '#/components/schemas/BookingCreatedEvent' });
    expect(doc.components.schemas.BookingCreatedEvent.properties.data.properties.object).toEqual({
      $ref: '#/components/schemas/Booking',
    });
    expect(content.example.type).toBe('booking.created');
    expect(Object.keys(created.responses)).toEqual(expect.arrayContaining(['200', '400']));
    const rescheduled = doc.components.schemas.BookingRescheduledEvent.properties.data;
    expect(rescheduled.required).toEqual(['object', 'previous']);
  });
});
