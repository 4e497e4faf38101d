import { z } from 'zod';
import { EVENT_TYPE_NAMES, isEventTypeFilter } from '@/server/client-safe/event-catalog';
import { ListQuery, Timestamp } from '@/server/lib/schemas';

export const EventTypeName = z.enum(EVENT_TYPE_NAMES as [string, ...string[]]);

export const EventTypeFilter = z
  .string()
  .max(100)
  .refine(isEventTypeFilter, {
    message: 'Must be an event type from GET /event-types or a family of them such as booking.*',
  })
  .meta({ example: 'booking.*' });

export const EventEnvelope = z.object({
  id: z.string().meta({ example: 'evt_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  type: EventTypeName,
  created_at: Timestamp,
  tenant_id: z.string().meta({ format: 'uuid' }),
  api_version: z.literal('v1'),
  data: z.object({
    object: z
      .record(z.string(), z.unknown())
      .meta({ description: 'The resource as the REST API returns it' }),
    previous: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'The changed fields before the change' }),
  }),
});

export const EventTypeInfo = z.object({
  type: EventTypeName,
  description: z.string(),
  schema: z.record(z.string(), z.unknown()).meta({
    description:
      'JSON Schema (draft 2020-12) of this type’s envelope, data.object typed as the resource; ' +
      'self-contained, so a receiver can validate a delivery body with any JSON Schema validator',
  }),
  example: EventEnvelope,
});
export const EventTypeList = z.object({ data: z.array(EventTypeInfo) });

export const EventListQuery = ListQuery.extend({
  type: EventTypeFilter.optional().meta({
    description: 'Only events of this type, or of a family of types (`booking.*`, `conversation.message.*`)',
  }),
  after: z
    .string()
    .regex(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be an event id (evt_…)')
    .optional()
    .meta({
      description:
        'Only events recorded after this one, oldest first (for polling: pass the last id you got). ' +
        'Not with cursor; next_cursor is then always null.',
      example: 'evt_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
    }),
});
