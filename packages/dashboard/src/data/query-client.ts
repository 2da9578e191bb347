import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client.js';

/**
 * The console's cache: answers stay fresh for 15 s (a list revisited shows at once and refreshes behind),
 * a refused call (4xx) is not retried, a failure of the server or the network is retried twice.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
      },
      mutations: { retry: false },
    },
  });
}
