// Cursor pagination over time-ordered ids (server/lib/ids.ts), newest first. The cursor is the last
// id of the page, base64url-wrapped so clients treat it as opaque.
import { Errors } from '@/server/lib/errors';

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[a-z]{3}_[0-9A-Z]{26}$/.test(id))
    throw Errors.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
  return id;
}

/**
 * Runs `fetch` for one page. `fetch` spreads `after` into its where clause, takes `take` rows
 * and orders by id descending.
 */
export async function paginate<Row extends { id: string }, Out>(
  query: { limit: number; cursor?: string },
  fetch: (args: { after: { id?: { lt: string } }; take: number }) => Promise<Row[]>,
  serialize: (row: Row) => Out,
): Promise<Page<Out>> {
  const before = decodeCursor(query.cursor);
  const rows = await fetch({ after: before ? { id: { lt: before } } : {}, take: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  return {
    data: page.map(serialize),
    next_cursor: hasMore ? Buffer.from(page[page.length - 1].id).toString('base64url') : null,
  };
}
