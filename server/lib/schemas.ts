// Shapes every resource shares: timestamps and the page input of every list.
import { z } from 'zod';

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

/** What a list operation needs of its input; dashboards pass their own page size. */
export interface PageInput {
  limit: number;
  cursor?: string;
}

export const iso = (date: Date): string => date.toISOString();
export const isoOrNull = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);
