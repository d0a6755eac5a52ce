import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api/api-error';
import { CURRENT_USER_KEY } from './auth/use-current-user';

/**
 * Data caching for the console. A 401 on any call means the session ended (signed out elsewhere,
 * expired): the signed-in user is fetched again, which brings back the sign-in page.
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
      },
    },
    queryCache: new QueryCache({ onError: (error) => onSessionError(error) }),
    mutationCache: new MutationCache({ onError: (error) => onSessionError(error) }),
  });
  const onSessionError = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) {
      void client.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    }
  };
  return client;
}
