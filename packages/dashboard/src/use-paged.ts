import type { Page } from '@svc/contract';
import { useCallback, useEffect, useState } from 'react';
import { messageOf } from './api.js';

export interface Paged<T> {
  readonly items: readonly T[];
  readonly loading: boolean;
  readonly error: string | undefined;
  /** Whether the server has another page. */
  readonly hasMore: boolean;
  readonly loadMore: () => void;
  /** Loads the first page again, replacing what is shown. */
  readonly reload: () => void;
}

/** A paged list (`{data, nextCursor}`) loaded a page at a time; `load` must be stable (useCallback). */
export function usePaged<T>(load: (cursor: string | null) => Promise<Page<T>>): Paged<T> {
  const [items, setItems] = useState<readonly T[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string>();

  const fetchPage = useCallback(
    async (cursor: string | null) => {
      setLoading(true);
      setError(undefined);
      try {
        const page = await load(cursor);
        setItems((shown) => (cursor === null ? page.data : [...shown, ...page.data]));
        setNextCursor(page.nextCursor);
      } catch (failure) {
        setError(messageOf(failure));
      } finally {
        setLoading(false);
      }
    },
    [load],
  );

  useEffect(() => {
    void fetchPage(null);
  }, [fetchPage]);

  return {
    items,
    loading,
    error,
    hasMore: nextCursor !== null,
    loadMore: () => void fetchPage(nextCursor),
    reload: () => void fetchPage(null),
  };
}
