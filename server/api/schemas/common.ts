// Response shapes of the REST API itself: the list envelope and RFC 9457 problem details.
import { z } from 'zod';

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
