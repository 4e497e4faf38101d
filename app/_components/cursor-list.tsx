'use client';
/**
 * The one way the dashboard shows a cursor-paginated list (`{data, next_cursor}`, see the API's
 * pagination): `useInfiniteQuery(trpc.<area>.<list>.infiniteQueryOptions(input, cursorPages))`, then
 * `<CursorList query={…} empty={…}>{(rows) => …}</CursorList>`, which shows loading, a failure, the
 * empty state or the rows, and "Load more" while there are further pages.
 */
import type { ReactNode } from 'react';
import { LoadMore, QueryState } from './feedback';

interface CursorPage<T> {
  data: T[];
  next_cursor: string | null;
}

/** The infinite query's page cursor: the API's `next_cursor` (null on the last page). */
export const cursorPages = {
  getNextPageParam: (page: { next_cursor: string | null }) => page.next_cursor,
};

interface CursorQuery<T> {
  data?: { pages: CursorPage<T>[] };
  isPending: boolean;
  error: unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** Every row loaded so far, in order. */
export function rowsOf<T>(query: { data?: { pages: CursorPage<T>[] } }): T[] {
  return query.data?.pages.flatMap((page) => page.data) ?? [];
}

export function CursorList<T>({
  query,
  empty,
  children,
}: {
  query: CursorQuery<T>;
  empty: ReactNode;
  children: (rows: T[]) => ReactNode;
}) {
  return (
    <>
      <QueryState query={query} rows={rowsOf(query)} empty={empty}>
        {children}
      </QueryState>
      <LoadMore query={query} />
    </>
  );
}
