import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '@/server/client-safe/event-catalog';
import { jsonSchemaValidator } from '@/test/support/json-schema';
import {
  describeEventTypes,
  EVENT_PAYLOADS,
  envelopeSchema,
  exampleEnvelope,
  exampleObject,
  InvalidEventPayload,
  validatePayload,
} from './payloads';

const ajv = jsonSchemaValidator();

describe('typed events', () => {
  it('gives every catalog type an object schema', () => {
    expect(Object.keys(EVENT_PAYLOADS).sort()).toEqual(EVENT_TYPES.map((e) => e.type).sort());
  });

  it('has, for every type, an example valid against its zod schema and its served JSON Schema', () => {
    for (const info of describeEventTypes()) {
      expect(envelopeSchema(info.type).safeParse(info.example).success, info.type).toBe(true);
      const validate = ajv.compile(info.schema);
      expect(validate(info.example), `${info.type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(info.example).toEqual(exampleEnvelope(info.type));
    }
  });

  it('the JSON Schema refuses another type’s body and undeclared fields', () => {
    const schema = describeEventTypes().find((e) => e.type === 'booking.created')!.schema;
    const validate = ajv.compile(schema);
    expect(validate(exampleEnvelope('payment.created'))).toBe(false);
    const extra = exampleEnvelope('booking.created');
    (extra.data.object as Record<string, unknown>).surprise = 1;
    expect(validate(extra)).toBe(false);
  });

  it('accepts an object of its type', () => {
    expect(validatePayload('booking.created', exampleObject('booking.created'), undefined)).toEqual({
      object: exampleObject('booking.created'),
    });
    const previous = {
      start_at: '2026-01-01T10:00:00.000Z',
      end_at: '2026-01-01T11:00:00.000Z',
      resource_id: null,
    };
    expect(
      validatePayload('booking.rescheduled', exampleObject('booking.rescheduled'), previous).previous,
    ).toEqual(previous);
  });

  it('refuses an object of another type, a missing or mistyped field, an undeclared key or previous', () => {
    const booking = exampleObject('booking.created');
    const refused: [Parameters<typeof validatePayload>[0], unknown, unknown][] = [
      ['booking.created', exampleObject('payment.created'), undefined],
      ['booking.created', { id: 'bkg_1' }, undefined],
      ['booking.created', { ...booking, status: 'lost' }, undefined],
      ['booking.created', { ...booking, start_at: 42 }, undefined],
      ['booking.created', { ...booking, internal_note: 'x' }, undefined],
      ['booking.created', { ...booking, customer: { ...booking.customer, ssn: '1' } }, undefined],
      ['booking.created', booking, { start_at: booking.start_at, end_at: booking.end_at }],
      ['booking.rescheduled', booking, { start_at: booking.start_at }],
      ['conversation.message.read', exampleObject('conversation.created'), undefined],
    ];
    for (const [type, object, previous] of refused) {
      expect(() => validatePayload(type, object, previous), `${type} ${JSON.stringify(object)}`).toThrow(
        InvalidEventPayload,
      );
    }
  });
});
