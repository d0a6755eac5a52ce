import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../api/query-keys';
import { listUsers } from '../api/users-api';

export function useUsers() {
  return useQuery({ queryKey: queryKeys.users, queryFn: listUsers });
}
