// Cursor pagination over time-ordered ids (server/lib/ids.ts), newest first. The cursor is the last
// id of the page, base64url-wrapped so clients treat it as opaque.
import { AnswerBudget, jsonBytes, MAX_ANSWER_BYTES } from '@/server/lib/answer-size';
import { Errors } from '@/server/lib/errors';

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** The cursor of the page that goes on after the entry `id`. */
export const cursorAfter = (id: string): string => Buffer.from(id).toString('base64url');

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[a-z]{3}_[0-9A-Z]{26}$/.test(id))
    throw Errors.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
  return id;
}

/**
 * Runs `fetch` for one page. `fetch` spreads `after` into its where clause, takes `take` rows
 * and orders by id descending. The page also ends where its JSON would pass `budget` bytes
 * (server/lib/answer-size.ts; default 1 MiB), its cursor going on from the last item it holds: a page
 * of large items is shorter, never larger. It holds at least one item, so a cursor always moves on.
 */
export async function paginate<Row extends { id: string }, Out>(
  query: { limit: number; cursor?: string },
  fetch: (args: { after: { id?: { lt: string } }; take: number }) => Promise<Row[]>,
  serialize: (row: Row) => Out,
  budget = MAX_ANSWER_BYTES,
): Promise<Page<Out>> {
  const before = decodeCursor(query.cursor);
  const rows = await fetch({ after: before ? { id: { lt: before } } : {}, take: query.limit + 1 });
  const spent = new AnswerBudget(budget);
  spent.spend(
    jsonBytes({ data: [], next_cursor: Buffer.from(before ?? rows[0]?.id ?? '').toString('base64url') }),
  );
  const data: Out[] = [];
  let last: Row | undefined;
  for (const row of rows.slice(0, query.limit)) {
    const item = serialize(row);
    if (!spent.take(item) && data.length > 0) break;
    data.push(item);
    last = row;
  }
  const hasMore = rows.length > data.length;
  return {
    data,
    next_cursor: hasMore && last ? cursorAfter(last.id) : null,
  };
}
