import { z } from 'zod';

/** Shapes shared by every resource: timestamps, list envelope, problem details. */
export const Timestamp = z.string().meta({ format: 'date-time', description: 'RFC 3339 UTC timestamp' });

export const ListQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .meta({ description: 'Page size, 1..100 (default 20)' }),
  cursor: z.string().min(1).max(200).optional().meta({ description: 'The next_cursor of the previous page' }),
});

export function listOf<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({ data: z.array(item), next_cursor: z.string().nullable() })
    .meta({ id, description: 'One page, newest first; pass next_cursor as ?cursor= for the next page' });
}

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: z.string(),
    detail: z.string(),
    request_id: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details (application/problem+json)' });

export const iso = (date: Date): string => date.toISOString();
export const isoOrNull = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);
