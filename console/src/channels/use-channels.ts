import { useQuery } from '@tanstack/react-query';
import { listChannels } from '../api/channels-api';
import { queryKeys } from '../api/query-keys';

export function useChannels() {
  return useQuery({ queryKey: queryKeys.channels, queryFn: listChannels });
}
