import { useQuery } from '@tanstack/react-query';
import { fetchOwnAccount } from '../api/auth-api';
import { queryKeys } from '../api/query-keys';

/** `GET /api/me`: the caller's account with its current balance, shared by every page that shows it. */
export function useOwnAccount() {
  return useQuery({ queryKey: queryKeys.ownAccount, queryFn: fetchOwnAccount });
}
