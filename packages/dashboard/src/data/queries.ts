import { pageSchema, type Page } from '@svc/contract';
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet, messageOf, type QueryValues, type Surface } from '../api/client.js';
import { notify } from '../ui/toast.js';

/** Every cached answer is keyed `[surface, path, query]`, so a write can refresh what it changed. */
export type ApiKey = readonly [Surface, string, QueryValues?];

/** Marks stale every cached answer of `surface` whose path starts with one of `paths`. */
export function invalidate(client: QueryClient, surface: Surface, paths: readonly string[]): Promise<void> {
  return client.invalidateQueries({
    predicate: (query) => {
      const [cached, path] = query.queryKey as unknown as ApiKey;
      return cached === surface && paths.some((prefix) => path.startsWith(prefix));
    },
  });
}

export interface ListState<T> {
  readonly items: readonly T[];
  readonly isPending: boolean;
  readonly error: Error | null;
  readonly hasMore: boolean;
  readonly isFetchingMore: boolean;
  readonly loadMore: () => void;
  readonly retry: () => void;
}

/**
 * A paged operator list (`{ data, nextCursor }`), a page at a time with "Load more"; the query's empty
 * values are left out, and each filter combination is cached on its own.
 */
export function useList<S extends z.ZodType>(
  surface: Surface,
  path: string,
  item: S,
  query: QueryValues = {},
  options: { readonly enabled?: boolean } = {},
): ListState<z.output<S>> {
  const parser = pageSchema(item) as unknown as z.ZodType<Page<z.output<S>>>;
  const result = useInfiniteQuery({
    queryKey: [surface, path, query] as const,
    queryFn: ({ pageParam }) =>
      apiGet(surface, path, parser, pageParam === null ? query : { ...query, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    enabled: options.enabled ?? true,
  });
  return {
    items: result.data?.pages.flatMap((page) => page.data) ?? [],
    isPending: result.isPending && (options.enabled ?? true),
    error: result.error,
    hasMore: result.hasNextPage,
    isFetchingMore: result.isFetchingNextPage,
    loadMore: () => void result.fetchNextPage(),
    retry: () => void result.refetch(),
  };
}

/** An unpaged list (an answer with all its items at once) as a DataTable shows a list. */
export function wholeList<T>(result: UseQueryResult<unknown>, items: readonly T[] | undefined): ListState<T> {
  return {
    items: items ?? [],
    isPending: result.isPending,
    error: result.error,
    hasMore: false,
    isFetchingMore: false,
    loadMore: () => undefined,
    retry: () => void result.refetch(),
  };
}

/** One record (or any single answer) of an operator API. */
export function useRecord<S extends z.ZodType>(
  surface: Surface,
  path: string,
  schema: S,
  query?: QueryValues,
  options: { readonly enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: query === undefined ? ([surface, path] as const) : ([surface, path, query] as const),
    queryFn: () => apiGet(surface, path, schema as z.ZodType<z.output<S>>, query),
    enabled: options.enabled ?? true,
  });
}

/**
 * A write: on success a toast says what was done and the answers it changed (`refresh`: path prefixes
 * of `surface`) are fetched again; on failure a toast says why unless `quiet` (a form shows the error
 * beside its fields instead).
 */
export function useAction<I, T>(options: {
  readonly run: (input: I) => Promise<T>;
  readonly surface?: Surface;
  readonly refresh?: readonly string[];
  readonly success?: string | ((result: T, input: I) => string);
  readonly quiet?: boolean;
  readonly onSuccess?: (result: T, input: I) => void;
}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: options.run,
    onSuccess: async (result, input) => {
      if (options.refresh !== undefined) await invalidate(client, options.surface ?? 'auth', options.refresh);
      const success = typeof options.success === 'function' ? options.success(result, input) : options.success;
      if (success !== undefined) notify.success(success);
      options.onSuccess?.(result, input);
    },
    onError: (error) => {
      if (options.quiet !== true) notify.failure('That did not work', messageOf(error));
    },
  });
}
