import { useQuery } from '@tanstack/react-query';
import { fetchSignedInUser } from '../api/auth-api';

export const CURRENT_USER_KEY = ['auth', 'me'] as const;

/** The signed-in user (`GET /api/auth/me`); `data` is null when there is no session. */
export function useCurrentUser() {
  return useQuery({ queryKey: CURRENT_USER_KEY, queryFn: fetchSignedInUser, staleTime: Infinity });
}
