// A tool's schemas and input are derived from its route: checked here without a database. The calls
// themselves, through the official client, are test/api/mcp-tools-match-rest.integration.test.ts.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listOf } from '@/server/api/schemas/common';
import { bookingRoutes } from '@/server/api/v1/bookings';
import { conversationRoutes } from '@/server/api/v1/conversations';
import { CreateBookingInput } from '@/server/domain/bookings/schemas';
import type { ActingFor } from '@/server/domain/context';
import type { AnyTenantRoute } from '@/server/http/route';
import { AppError } from '@/server/lib/errors';
import { SESSION_TOOLS } from './session-tools';
import {
  type AssistantTool,
  inputSchemaOf,
  type JsonSchema,
  jsonSchemaOf,
  longestFitting,
  outputSchemaOf,
  routeInputOf,
  toolFrom,
} from './tool';
import { ASSISTANT_TOOLS, keepEarliestSlots, keepFirstEntries } from './tools';

const route = (operationId: string) => {
  const found = bookingRoutes.find((r) => r.operationId === operationId);
  if (!found) throw new Error(operationId);
  return found;
};

function fieldErrors(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('validation_failed');
    return (error as AppError).details.errors;
  }
  throw new Error('expected validation_failed');
}

describe('the JSON Schemas of a tool', () => {
  it('are self-contained: a component reference is inlined, an example becomes examples', () => {
    const schema = listOf(z.object({ id: z.string().meta({ example: 'bkg_1' }) }), 'ThingList');
    expect(z.toJSONSchema(schema, { target: 'draft-7' })).toHaveProperty('$ref');
    expect(jsonSchemaOf(schema, 'output')).toEqual({
      type: 'object',
      properties: {
        data: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'string', examples: ['bkg_1'] } },
            required: ['id'],
            additionalProperties: false,
          },
        },
        next_cursor: { type: ['string', 'null'] },
      },
      required: ['data', 'next_cursor'],
      additionalProperties: false,
      description: 'One page, newest first; pass next_cursor as ?cursor= for the next page',
    });
  });

  it('keep the rules a standard format does not say (a phone’s pattern), not zod’s regex for one', () => {
    const book = jsonSchemaOf(CreateBookingInput, 'input').properties as Record<string, JsonSchema>;
    expect(book.start_at).toEqual({
      type: 'string',
      format: 'date-time',
      description: 'RFC 3339 timestamp (any offset; stored and returned in UTC)',
    });
    const customer = book.customer as { properties: Record<string, { anyOf: JsonSchema[] }> };
    expect(customer.properties.phone.anyOf[0]).toMatchObject({ pattern: '^\\+?[1-9][0-9]{6,14}$' });
  });

  it('compile as draft-07 for every tool, and each answer is an object (MCP structured content)', () => {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    for (const tool of ASSISTANT_TOOLS) {
      const input = inputSchemaOf(tool);
      expect(() => ajv.compile(input), tool.name).not.toThrow();
      expect(input).toMatchObject({ type: 'object', additionalProperties: false });
      const output = outputSchemaOf(tool);
      expect(output?.type, tool.name).toBe('object');
      expect(() => ajv.compile(output as object), tool.name).not.toThrow();
    }
  });

  it('offer only the picked fields, renamed, with the tool’s own required ones', () => {
    const list = ASSISTANT_TOOLS.find((t) => t.name === 'list_customer_bookings');
    const book = ASSISTANT_TOOLS.find((t) => t.name === 'book_slot');
    if (!list || !book) throw new Error('tools missing');
    const listed = inputSchemaOf(list);
    expect(Object.keys(listed.properties as object)).toEqual(['phone', 'email', 'cursor']);
    expect((listed.properties as Record<string, unknown>).phone).toEqual(
      (jsonSchemaOf(route('listBookings').query as z.ZodType, 'input').properties as Record<string, unknown>)
        .customer_phone,
    );
    expect(inputSchemaOf(book).required).toEqual(['customer', 'start_at', 'service_id']);
  });
});

describe('a tool’s input', () => {
  const list = toolFrom(route('listBookings'), {
    name: 'list_customer_bookings',
    description: 'test',
    pick: ['customer_phone', 'customer_email'],
    rename: { phone: 'customer_phone', email: 'customer_email' },
    requireOneOf: ['phone', 'email'],
    fixed: { limit: 100 },
  });

  it('becomes the route’s input: renamed fields, fixed ones, the id as the path parameter', () => {
    expect(routeInputOf(list, { phone: '34600111222' }).query).toMatchObject({
      customer_phone: '34600111222',
      limit: 100,
    });
    const cancel = toolFrom(route('cancelBooking'), {
      name: 'cancel_booking',
      description: 'test',
      idParam: { name: 'booking_id', description: 'id' },
    });
    expect(routeInputOf(cancel, { booking_id: 'bkg_1', reason: 'moved away' })).toEqual({
      params: { id: 'bkg_1' },
      body: { reason: 'moved away' },
      query: undefined,
    });
  });

  it('is refused with field errors in the tool’s names', () => {
    expect(fieldErrors(() => routeInputOf(list, { phone: 'x', limit: 5 }))).toEqual([
      { path: 'limit', message: 'Not a field of list_customer_bookings' },
    ]);
    expect(fieldErrors(() => routeInputOf(list, {}))).toEqual([
      { path: 'phone', message: 'Send at least one of phone, email' },
    ]);
    expect(fieldErrors(() => routeInputOf(list, { phone: 'call me' }))?.map((e) => e.path)).toEqual([
      'phone',
    ]);
    expect(fieldErrors(() => routeInputOf(list, [])))?.toEqual([
      { path: '(input)', message: 'Expected an object of the tool’s fields' },
    ]);
  });

  it('cannot be declared against the route’s shape', () => {
    expect(() =>
      toolFrom(route('listBookings'), {
        name: 'x',
        description: 'x',
        idParam: { name: 'booking_id', description: 'x' },
      }),
    ).toThrow(/path parameters/);
    expect(() => toolFrom(route('getBooking'), { name: 'y', description: 'y' })).toThrow(/path parameters/);
    const wrong = toolFrom(route('listBookings'), { name: 'z', description: 'z', pick: ['customer_name'] });
    expect(() => inputSchemaOf(wrong)).toThrow(/has no field customer_name/);
  });
});

describe('a session’s tool', () => {
  const acting: ActingFor = { conversationId: 'cnv_mine', contact: { name: 'Ada', phone: '34600111222' } };
  const book = toolFrom(route('createBooking'), {
    name: 'book_slot',
    description: 'test',
    pick: ['service_id', 'start_at'],
    bind: { customer: (a) => ({ name: a.contact.name, phone: `+${a.contact.phone}` }) },
  });

  it('offers none of its bound fields, and fills them from the session after the arguments', () => {
    expect(Object.keys(inputSchemaOf(book).properties as object)).toEqual(['service_id', 'start_at']);
    expect(inputSchemaOf(book).required).toEqual(['start_at']);
    const input = routeInputOf(book, { service_id: 'svc_1', start_at: '2030-01-01T10:00:00Z' }, acting);
    expect(input.body).toMatchObject({ customer: { name: 'Ada', phone: '+34600111222' } });
    expect(
      fieldErrors(() =>
        routeInputOf(book, { start_at: '2030-01-01T10:00:00Z', customer: { name: 'B' } }, acting),
      ),
    ).toEqual([{ path: 'customer', message: 'Not a field of book_slot' }]);
    expect(() => routeInputOf(book, { start_at: '2030-01-01T10:00:00Z' })).toThrow(
      /only for an assistant session/,
    );
  });

  it('may bind its path id instead of offering it, never both', () => {
    const send = toolFrom(
      conversationRoutes.find((r) => r.operationId === 'sendConversationMessage') as AnyTenantRoute,
      {
        name: 'send_message',
        description: 'test',
        pick: ['text'],
        bind: { id: (a) => a.conversationId },
      },
    );
    expect(Object.keys(inputSchemaOf(send).properties as object)).toEqual(['text']);
    expect(routeInputOf(send, { text: 'hi' }, acting).params).toEqual({ id: 'cnv_mine' });
    expect(() =>
      toolFrom(route('cancelBooking'), {
        name: 'x',
        description: 'x',
        idParam: { name: 'booking_id', description: 'x' },
        bind: { id: () => 'bkg_x' },
      }),
    ).toThrow(/offered and bound/);
  });

  it('answers its own schema, with truncated when it cuts', () => {
    const list = SESSION_TOOLS.find((t) => t.name === 'list_customer_bookings');
    const output = outputSchemaOf(list as AssistantTool) as { properties: Record<string, JsonSchema> };
    expect(Object.keys(output.properties)).toEqual(['data', 'truncated']);
    expect(Object.keys((output.properties.data.items as JsonSchema).properties as object)).not.toContain(
      'customer',
    );
  });
});

describe('cutting an answer to 64 KiB', () => {
  it('keeps the longest prefix that fits', () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const kept = longestFitting(
      items,
      (k) => k,
      (c) => (c as number[]).length <= 17,
    ) as number[];
    expect(kept).toEqual(items.slice(0, 17));
    expect(
      longestFitting(
        items,
        (k) => k,
        () => false,
      ),
    ).toEqual([]);
  });

  it('find_slots keeps the earliest slots, dropping the later dates', () => {
    const slot = (date: string, hh: string) => ({
      start: `${date}T${hh}:00:00.000Z`,
      end: 'x',
      resource_ids: [],
    });
    const answer = {
      service_id: 'svc',
      time_zone: 'UTC',
      days: {
        '2030-01-01': [slot('2030-01-01', '09'), slot('2030-01-01', '10')],
        '2030-01-02': [slot('2030-01-02', '09')],
      },
    };
    const fits = (c: unknown) => Object.values((c as typeof answer).days).flat().length <= 2;
    expect(keepEarliestSlots(answer, fits)).toEqual({
      ...answer,
      days: { '2030-01-01': answer.days['2030-01-01'] },
    });
    expect(
      keepFirstEntries(
        { data: [1, 2, 3], next_cursor: null },
        (c) => (c as { data: number[] }).data.length < 2,
      ),
    ).toEqual({ data: [1], next_cursor: null });
  });
});
