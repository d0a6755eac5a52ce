import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../api/query-keys';
import { fetchPublicOptions } from './public-options-api';

/**
 * The gateway's self-service options; `data` is null when it does not say, undefined while
 * loading or after a failure (both read as "unknown": nothing is hidden on a guess).
 */
export function usePublicOptions() {
  return useQuery({ queryKey: queryKeys.publicOptions, queryFn: fetchPublicOptions, staleTime: 60_000 });
}
